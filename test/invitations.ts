// Reading the invitation a person was emailed, as they (or whoever holds their mailbox) would: the sandbox
// mailbox under the test's data directory stands in for the person's inbox.
import type { ConsoleDb, UserRow } from '@/lib/db/schema';
import { enrollTotp, totpCodeAt } from '@/lib/server/factors/totp';
import { acceptInvitation, checkInvitation } from '@/lib/server/invitations';
import { readSandboxMailbox } from '@/lib/server/invitations/sandbox-mailbox';
import { hashPassword } from '@/lib/server/passwords';

/** The token of the newest link emailed to `email`; empty when none arrived. */
export async function linkTokenFor(dataDir: string, email: string): Promise<string> {
  // Newest first: the link looked for is nearly always among the latest few, and a long test's mailbox holds
  // hundreds of messages; the whole mailbox only when it is not.
  const mail =
    (await readSandboxMailbox(dataDir, 20)).find((m) => m.to === email) ??
    (await readSandboxMailbox(dataDir, 10_000)).find((m) => m.to === email);
  return mail?.text.match(/\/invite\/([A-Za-z0-9_-]{43})/)?.[1] ?? '';
}

/**
 * Uses the newest link emailed to `email`: chooses `password` and, when the role approves, enrols an authenticator
 * app. Returns the account as it then is.
 */
export async function acceptFromMailbox(
  db: ConsoleDb,
  key: Buffer,
  dataDir: string,
  email: string,
  password = 'a passphrase of my own',
): Promise<UserRow> {
  const token = await linkTokenFor(dataDir, email);
  const check = await checkInvitation(db, token);
  if (!check.ok) throw new Error(`no usable link for ${email}: ${check.reason}`);
  let factor: { factorId: string; code: string } | undefined;
  if (check.needsFactor) {
    const app = await enrollTotp(db, key, check.user, 'Authenticator app');
    factor = { factorId: app.factorId, code: totpCodeAt(app.secret, Date.now()) };
  }
  const accepted = await acceptInvitation(db, key, {
    token,
    passwordHash: await hashPassword(password),
    ...(factor ? { factor } : {}),
  });
  if (!accepted.ok) throw new Error(`the link for ${email} was refused: ${accepted.reason}`);
  return accepted.user;
}
