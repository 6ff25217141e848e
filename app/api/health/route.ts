import { sql } from 'drizzle-orm';
import { getRuntime } from '@/lib/server/runtime';

export const dynamic = 'force-dynamic';

const STARTING = Symbol('starting');

/**
 * Answers at once: 503 with a sentence while the database (and the sandbox) are still being opened, 200 once they
 * are. The runtime starts booting when the server starts (instrumentation.ts), or here if it has not.
 */
export async function GET() {
  const booting = getRuntime();
  try {
    // An already settled runtime wins the race (its reaction is queued first); a booting one loses to STARTING.
    const runtime = await Promise.race([booting, Promise.resolve(STARTING)]);
    if (runtime === STARTING) {
      booting.catch(() => {});
      return Response.json(
        {
          status: 'starting',
          message: 'The console is starting: the database is being opened. Try again in a moment.',
        },
        { status: 503, headers: { 'retry-after': '1', 'cache-control': 'no-store' } },
      );
    }
    await runtime.database.db.execute(sql`select 1`);
    return Response.json({
      status: 'ok',
      database: runtime.database.kind,
      sandbox: Boolean(runtime.sandbox),
    });
  } catch {
    return Response.json(
      { status: 'unavailable', message: 'The console could not open its database; see the server log.' },
      { status: 503, headers: { 'cache-control': 'no-store' } },
    );
  }
}
