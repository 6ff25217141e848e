import { z } from 'zod';
import type { ConsoleDb } from '@/lib/db/schema';
import { bootstrapAdmin } from '@/lib/server/approvals/admin-quorum';
import { appendAudit } from '@/lib/server/audit';
import { currentPeerAddress, isLoopbackAddress } from '@/lib/server/peer-address';
import { readJsonBody } from '@/lib/server/route';
import { getRuntime } from '@/lib/server/runtime';
import { tokenMatches } from '@/lib/server/server-lock';
import { addUserSchema } from '@/lib/validation/users';

export const dynamic = 'force-dynamic';

/**
 * `npm run users` while the console runs on PGlite: the tool proves it can read the owner-only
 * server note under the data directory by sending its token. Loopback only: the socket's own address decides,
 * never the Host or forwarding headers.
 */
export async function POST(request: Request) {
  const runtime = await getRuntime();
  const note = runtime.serverNote;
  if (!note || !isLoopbackAddress(currentPeerAddress())) {
    return Response.json({ statusCode: 404, message: 'Not found' }, { status: 404 });
  }
  if (!tokenMatches(note.token, request.headers.get('x-console-cli-token'))) {
    return Response.json({ statusCode: 401, message: 'Invalid token' }, { status: 401 });
  }
  const read = await readJsonBody(request);
  if (!read.ok) return read.response;
  const body = read.body as { name?: unknown; email?: unknown } | null;
  const parsed = addUserSchema.safeParse({
    ...(body && typeof body === 'object' ? body : {}),
    name: body?.name || String(body?.email ?? '').split('@')[0],
  });
  if (!parsed.success) {
    return Response.json({ statusCode: 422, message: z.prettifyError(parsed.error) }, { status: 422 });
  }
  const db = runtime.database.db as ConsoleDb;
  const result = await bootstrapAdmin(db, parsed.data);
  await appendAudit(db, {
    actorId: null,
    actorEmail: 'cli',
    role: 'system',
    action: 'user.add',
    target: parsed.data.email,
    input: { email: parsed.data.email, role: parsed.data.role },
    outcome: result.ok ? 'success' : 'failed',
  });
  if (!result.ok) return Response.json({ statusCode: 409, message: result.error }, { status: 409 });
  return Response.json({
    email: result.user.email,
    role: result.user.role,
    oneTimePassword: result.oneTimePassword,
  });
}
