import { sql } from 'drizzle-orm';
import { getRuntime } from '@/lib/server/runtime';

export const dynamic = 'force-dynamic';

/** Opens the database (and the sandbox) so a fresh server is warm before the first person arrives. */
export async function GET() {
  try {
    const runtime = await getRuntime();
    await runtime.database.db.execute(sql`select 1`);
    return Response.json({
      status: 'ok',
      database: runtime.database.kind,
      sandbox: Boolean(runtime.sandbox),
    });
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503 });
  }
}
