// Invitation and reset links against a real database: only the token's SHA-256 is kept, a link works once, until
// it expires (a faked clock), while its account is enabled, and only until a newer link replaces it; the email
// leaves through a real SMTP server, or the sandbox mailbox in sandbox mode without one, and never at all
// against a real service without SMTP_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, userFactors, userInvitations, users } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { enrollTotp, totpCodeAt } from '../factors/totp';
import { hashPassword } from '../passwords';
import { checkCredentials, createInvitedUser, createUser, disableUser, enableUser } from '../users';
import {
  INVITATIONS_NEED_SMTP,
  type InvitationConfig,
  invitationProblem,
  resendInvitation,
  sendInvitation,
} from '.';
import { readSandboxMailbox } from './sandbox-mailbox';
import {
  acceptInvitation,
  checkInvitation,
  hashInvitationToken,
  INVITATION_TTL_MS,
  invitationRefusalSentence,
  issueInvitation,
  latestInvitations,
} from './store';

const KEY = Buffer.alloc(32, 4);
const dataDir = mkdtempSync(path.join(tmpdir(), 'invitations-'));
let t: TestDatabase;
let inviter: { id: string };

const SANDBOX: InvitationConfig = {
  sandboxMode: true,
  dataDir,
  origin: 'https://console.example.com',
  env: {} as InvitationConfig['env'],
};

beforeAll(async () => {
  t = await createTestDatabase();
  const admin = await createUser(t.db, { email: 'inviter@example.com', name: 'Inviter', role: 'admin' });
  if (!admin.ok) throw new Error(admin.error);
  inviter = admin.user;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function invited(role: 'viewer' | 'finance' | 'admin' = 'viewer') {
  const created = await createInvitedUser(t.db, {
    email: `p-${crypto.randomUUID()}@example.com`,
    name: 'Pat',
    role,
    createdBy: inviter.id,
  });
  if (!created.ok) throw new Error(created.error);
  return created.user;
}

const TOKEN_IN_TEXT = /\/invite\/([A-Za-z0-9_-]{43})/;

describe('the invitation store', () => {
  it('keeps only the token’s SHA-256; the account has no usable password until the link is used', async () => {
    const user = await invited();
    const issued = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.select().from(userInvitations).where(eq(userInvitations.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashInvitationToken(issued.token));
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(issued.token);
    // Nothing typed signs the new account in: its password is random and kept by nobody.
    expect((await checkCredentials(t.db, user.email, '')).ok).toBe(false);
    expect(user.mustChangePassword).toBe(false);
  });

  it('works once: the password chosen signs in, and the link is then refused with a sentence', async () => {
    const user = await invited();
    const { token } = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    expect(await checkInvitation(t.db, token)).toMatchObject({ ok: true, needsFactor: false });
    const passwordHash = await hashPassword('my own passphrase 1');
    expect(await acceptInvitation(t.db, KEY, { token, passwordHash })).toMatchObject({
      ok: true,
      purpose: 'invitation',
    });
    expect((await checkCredentials(t.db, user.email, 'my own passphrase 1')).ok).toBe(true);
    const again = await checkInvitation(t.db, token);
    expect(again).toEqual({ ok: false, reason: 'used' });
    expect(
      await acceptInvitation(t.db, KEY, { token, passwordHash: await hashPassword('an attacker’s pass') }),
    ).toMatchObject({ ok: false, reason: 'used' });
    expect((await checkCredentials(t.db, user.email, 'my own passphrase 1')).ok).toBe(true);
    expect(invitationRefusalSentence({ reason: 'used' })).toMatch(/already used/);
  });

  it('expires after its time (a faked clock), and an expired link sets nothing', async () => {
    const user = await invited();
    const sent = new Date('2026-03-01T09:00:00Z');
    const { token, expiresAt } = await issueInvitation(t.db, {
      user,
      purpose: 'invitation',
      issuedBy: inviter.id,
      now: sent,
    });
    expect(expiresAt.getTime() - sent.getTime()).toBe(INVITATION_TTL_MS);
    const justBefore = new Date(expiresAt.getTime() - 1);
    expect((await checkInvitation(t.db, token, justBefore)).ok).toBe(true);
    const after = new Date(expiresAt.getTime() + 1);
    const expired = await checkInvitation(t.db, token, after);
    expect(expired).toEqual({ ok: false, reason: 'expired', expiresAt });
    expect(invitationRefusalSentence(expired as { reason: 'expired'; expiresAt: Date })).toBe(
      'This link expired on 2026-03-04 09:00 UTC. Ask an admin to send the invitation again.',
    );
    const tried = await acceptInvitation(t.db, KEY, {
      token,
      passwordHash: await hashPassword('too late passphrase'),
      now: after,
    });
    expect(tried).toMatchObject({ ok: false, reason: 'expired' });
    expect((await checkCredentials(t.db, user.email, 'too late passphrase')).ok).toBe(false);
    const [row] = await t.db.select().from(userInvitations).where(eq(userInvitations.userId, user.id));
    expect(row?.usedAt).toBeNull();
    expect((await latestInvitations(t.db, [user.id], after)).get(user.id)?.state).toBe('expired');
  });

  it('refuses the link of a disabled account, and enabling it again revives no link', async () => {
    const user = await invited();
    const { token } = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    await disableUser(t.db, user.id);
    expect(await checkInvitation(t.db, token)).toEqual({ ok: false, reason: 'disabled' });
    expect(
      await acceptInvitation(t.db, KEY, { token, passwordHash: await hashPassword('disabled passphrase') }),
    ).toMatchObject({ ok: false, reason: 'disabled' });
    expect(invitationRefusalSentence({ reason: 'disabled' })).toMatch(/disabled/);
    await enableUser(t.db, user.id);
    expect(await checkInvitation(t.db, token)).toEqual({ ok: false, reason: 'replaced' });
    expect((await checkCredentials(t.db, user.email, 'disabled passphrase')).ok).toBe(false);
  });

  it('a newer link replaces the older one', async () => {
    const user = await invited();
    const first = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    const second = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    expect(await checkInvitation(t.db, first.token)).toEqual({ ok: false, reason: 'replaced' });
    expect(
      await acceptInvitation(t.db, KEY, {
        token: first.token,
        passwordHash: await hashPassword('old link pass'),
      }),
    ).toMatchObject({ ok: false, reason: 'replaced' });
    expect((await checkInvitation(t.db, second.token)).ok).toBe(true);
  });

  it('refuses a token it never issued, of any shape', async () => {
    expect(await checkInvitation(t.db, 'x'.repeat(43))).toEqual({ ok: false, reason: 'unknown' });
    expect(await checkInvitation(t.db, '../../etc/passwd')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('an approver sets up their own authenticator app at the link: a wrong code leaves the link unused', async () => {
    const user = await invited('finance');
    const { token } = await issueInvitation(t.db, { user, purpose: 'invitation', issuedBy: inviter.id });
    const check = await checkInvitation(t.db, token);
    expect(check).toMatchObject({ ok: true, needsFactor: true });
    const passwordHash = await hashPassword('finance passphrase');
    expect(await acceptInvitation(t.db, KEY, { token, passwordHash })).toMatchObject({
      ok: false,
      reason: 'factor-missing',
    });
    const app = await enrollTotp(t.db, KEY, user, 'Authenticator app');
    const now = Date.now();
    const right = totpCodeAt(app.secret, now);
    const wrong = right === '000000' ? '111111' : '000000';
    expect(
      await acceptInvitation(t.db, KEY, {
        token,
        passwordHash,
        factor: { factorId: app.factorId, code: wrong },
      }),
    ).toEqual({ ok: false, reason: 'code' });
    expect((await checkInvitation(t.db, token)).ok).toBe(true);
    expect((await checkCredentials(t.db, user.email, 'finance passphrase')).ok).toBe(false);
    expect(
      await acceptInvitation(t.db, KEY, {
        token,
        passwordHash,
        factor: { factorId: app.factorId, code: right },
        now: new Date(now),
      }),
    ).toMatchObject({ ok: true, factorEnrolled: true });
    const [factor] = await t.db.select().from(userFactors).where(eq(userFactors.id, app.factorId));
    expect(factor?.confirmedAt).not.toBeNull();
  });
});

describe('sending links', () => {
  it('in sandbox mode without SMTP_URL, writes the email to the sandbox mailbox; resending replaces the link', async () => {
    const user = await invited();
    const sent = await sendInvitation(t.db, SANDBOX, {
      userId: user.id,
      purpose: 'invitation',
      issuedBy: inviter.id,
    });
    expect(sent).toMatchObject({ email: user.email, delivered: true });
    expect(JSON.stringify(sent)).not.toMatch(TOKEN_IN_TEXT);
    const mail = (await readSandboxMailbox(dataDir)).find((m) => m.to === user.email);
    expect(mail?.subject).toBe('Your Custody Console account');
    const first = mail?.text.match(TOKEN_IN_TEXT)?.[1] ?? '';
    expect(mail?.text).toContain(`https://console.example.com/invite/${first}`);
    expect((await checkInvitation(t.db, first)).ok).toBe(true);

    const resent = await resendInvitation(t.db, SANDBOX, { userId: user.id, issuedBy: inviter.id });
    expect(resent).toMatchObject({ ok: true, sent: { email: user.email, delivered: true } });
    const mails = (await readSandboxMailbox(dataDir)).filter((m) => m.to === user.email);
    expect(mails).toHaveLength(2);
    const second = mails[0]?.text.match(TOKEN_IN_TEXT)?.[1] ?? '';
    expect(second).not.toBe(first);
    expect(await checkInvitation(t.db, first)).toEqual({ ok: false, reason: 'replaced' });
    expect((await checkInvitation(t.db, second)).ok).toBe(true);

    // Once used, the link is not sent again: a new password needs a reset link (another admin approves).
    await acceptInvitation(t.db, KEY, {
      token: second,
      passwordHash: await hashPassword('chosen passphrase'),
    });
    expect(await resendInvitation(t.db, SANDBOX, { userId: user.id, issuedBy: inviter.id })).toEqual({
      ok: false,
      error: `${user.email} has already used their link. To give them a new password, send a reset link (another admin approves it).`,
    });
    // Nothing secret in the audit log.
    expect(JSON.stringify(await t.db.select().from(auditLog))).not.toContain(second);
  });

  it('against a real service without SMTP_URL, sends nothing and says invitations need SMTP_URL', async () => {
    const real: InvitationConfig = { ...SANDBOX, sandboxMode: false };
    expect(invitationProblem(real)).toBe(INVITATIONS_NEED_SMTP);
    expect(INVITATIONS_NEED_SMTP).toMatch(/SMTP_URL/);
    expect(invitationProblem(SANDBOX)).toBeNull();
    expect(
      invitationProblem({
        ...real,
        env: { SMTP_URL: 'smtp://mail.example.com:587' } as InvitationConfig['env'],
      }),
    ).toBeNull();
    const user = await invited();
    const before = (await readSandboxMailbox(dataDir)).length;
    expect(await resendInvitation(t.db, real, { userId: user.id, issuedBy: inviter.id })).toEqual({
      ok: false,
      error: INVITATIONS_NEED_SMTP,
    });
    expect(await readSandboxMailbox(dataDir)).toHaveLength(before);
  });

  it('sends through SMTP_URL to the person’s own address; a mail server that is down is recorded, not thrown', async () => {
    const received: Array<{ to: string[]; raw: string }> = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => {
          raw += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    try {
      const config: InvitationConfig = {
        ...SANDBOX,
        sandboxMode: false,
        env: {
          SMTP_URL: `smtp://127.0.0.1:${port}`,
          ALERT_FROM: 'Console <console@example.com>',
        } as InvitationConfig['env'],
      };
      const user = await invited('admin');
      const before = (await readSandboxMailbox(dataDir)).length;
      const sent = await sendInvitation(t.db, config, {
        userId: user.id,
        purpose: 'invitation',
        issuedBy: inviter.id,
      });
      expect(sent).toMatchObject({ email: user.email, delivered: true });
      expect(received.map((m) => m.to)).toEqual([[user.email]]);
      const text = received[0]!.raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      const token = text.match(TOKEN_IN_TEXT)?.[1] ?? '';
      expect(await checkInvitation(t.db, token)).toMatchObject({ ok: true, needsFactor: true });
      expect(text).toContain('set up an authenticator app');
      // The sandbox mailbox is not used once a mail server is set.
      expect(await readSandboxMailbox(dataDir)).toHaveLength(before);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
    // Nothing listens there now: the link is issued, the failure recorded in words, and nothing thrown.
    const down: InvitationConfig = {
      ...SANDBOX,
      sandboxMode: false,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` } as InvitationConfig['env'],
    };
    const user = await invited();
    const failed = await sendInvitation(t.db, down, {
      userId: user.id,
      purpose: 'invitation',
      issuedBy: inviter.id,
    });
    expect(failed).toMatchObject({ delivered: false, error: expect.stringMatching(/^Could not deliver/) });
    expect((await latestInvitations(t.db, [user.id])).get(user.id)?.deliveryError).toBe(failed.error);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.disabledAt).toBeNull();
  });
});
