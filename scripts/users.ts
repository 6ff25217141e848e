// npm run users -- add --email E --role admin [--name N]: while the console has fewer independent admins than its
// approval policy needs, adds an admin and prints a one-time password (the bootstrap; then admins add people).
import { parseArgs } from 'node:util';
import type { ConsoleDb } from '@/lib/db/schema';
import { bootstrapAdmin } from '@/lib/server/approvals/admin-quorum';
import { appendAudit } from '@/lib/server/audit';
import { addUserSchema } from '@/lib/validation/users';
import { fail, openCliTarget } from './cli-database';

const USAGE =
  'Usage: npm run users -- add --email someone@example.com --role admin|finance|support|viewer [--name "Name"]';

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
  });
  if (positionals[0] !== 'add') fail(USAGE);
  const parsed = addUserSchema.safeParse({
    email: values.email ?? '',
    role: values.role ?? '',
    name: values.name ?? String(values.email ?? '').split('@')[0],
  });
  if (!parsed.success) fail(`${parsed.error.issues.map((i) => i.message).join('\n')}\n${USAGE}`);

  const target = await openCliTarget();
  let email: string;
  let oneTimePassword: string;
  if (target.kind === 'server') {
    const response = await fetch(`http://127.0.0.1:${target.note.port}/api/internal/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-console-cli-token': target.note.token },
      body: JSON.stringify(parsed.data),
    });
    const body = (await response.json()) as { message?: string; email: string; oneTimePassword: string };
    if (!response.ok) fail(body.message ?? `The running console refused (${response.status})`);
    ({ email, oneTimePassword } = body);
  } else {
    const db = target.handle.db as ConsoleDb;
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
    await target.handle.close();
    if (!result.ok) fail(result.error);
    ({ oneTimePassword } = result);
    email = result.user.email;
  }
  process.stdout.write(
    `Created ${email} (${parsed.data.role}).\nOne-time password (shown once, must be changed at first sign-in):\n${oneTimePassword}\n`,
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
