// The user administration actions against a real database: the session decides who may act, the audit log
// keeps every attempt, an admin cannot lock themselves out, and adding, promoting and enabling wait for a
// second admin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertOutbox, auditLog, operationRequests, type Role } from '@/lib/db/schema';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { acceptFromMailbox, linkTokenFor } from '@/test/invitations';

const state = vi.hoisted(() => ({
  user: null as null | {
    id: string;
    email: string;
    name: string;
    role: string;
    mustChangePassword: boolean;
    sessionId?: string;
  },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser, findUserByEmail } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { addUserAction, changeUserRoleAction, disableUserAction, enableUserAction, resendInvitationAction } =
  await import('./users');
const { getApprovalEngine } = await import('@/lib/server/approvals');
const { checkCredentials } = await import('@/lib/server/users');

const KEY = Buffer.alloc(32, 5);
const dataDir = mkdtempSync(path.join(tmpdir(), 'user-actions-'));
let t: TestDatabase;
/** The console as the runtime wires it: sandbox mode, so invitations go to the sandbox mailbox. */
const config = {
  encryptionKey: KEY,
  sandboxMode: true,
  dataDir,
  origin: 'https://console.example.com',
  env: { UNKNOWN_OUTCOME_WINDOW_MS: 600_000, ALERT_FROM: 'alerts@example.com', ALERT_MAX_ATTEMPTS: 1 },
};
beforeAll(async () => {
  t = await createTestDatabase();
  // The actions read the database the runtime would have wired.
  provideServices({ database: t.handle, config } as unknown as ConsoleServices);
});
afterAll(async () => {
  provideServices(undefined);
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signedInAs(role: Role) {
  const created = await createUser(t.db, {
    email: `${role}-${crypto.randomUUID()}@example.com`,
    name: role,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  // Configuration changes ask for a second factor proved within five minutes: this session just did.
  const session = await startSession(t.db, { userId: created.user.id, stepUpAt: Date.now() });
  state.user = { ...created.user, mustChangePassword: false, sessionId: session.id };
  return created.user;
}

/** A second admin approves a configuration request (not signed in: straight through the engine). */
async function approvedBySecondAdmin(requestId: string) {
  const created = await createUser(t.db, {
    email: `second-${crypto.randomUUID()}@example.com`,
    name: 'S',
    role: 'admin',
  });
  if (!created.ok) throw new Error(created.error);
  const { id, email, role } = created.user;
  return (await getApprovalEngine()).approve({ id, email, role }, requestId);
}

const entriesFor = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('user administration actions', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('asks for a user; once a second admin approves, the person is emailed an invitation nobody else sees', async () => {
    await signedInAs('admin');
    const email = `nia-${crypto.randomUUID()}@example.com`;
    const result = await addUserAction({ email: ` ${email.toUpperCase()} `, name: 'Nia', role: 'support' });
    expect(result).toMatchObject({
      ok: true,
      data: { kind: 'requested', summary: `Add ${email} as support` },
    });
    if (!result.ok || result.data.kind !== 'requested') return;
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
    expect(await approvedBySecondAdmin(result.data.id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    const created = await findUserByEmail(t.db, email);
    expect(created?.mustChangePassword).toBe(false);
    const token = await linkTokenFor(dataDir, email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const entry = (await entriesFor('user.add')).find((e) => e.target === email);
    expect(entry?.outcome).toBe('success');
    expect(entry?.input).toMatchObject({ email, name: 'Nia', role: 'support', invitation: 'sent' });
    // The link is in the person's mailbox only: not in the request, its result or the audit log.
    const [request] = await t.db
      .select()
      .from(operationRequests)
      .where(eq(operationRequests.id, result.data.id));
    expect(request?.result).toMatchObject({ kind: 'userCreate', invitation: { email, delivered: true } });
    expect(JSON.stringify(request)).not.toContain(token);
    expect(JSON.stringify(await t.db.select().from(auditLog))).not.toContain(token);
    // The person chooses their password at the link, and signs in with it.
    await acceptFromMailbox(t.db, KEY, dataDir, email, 'nia chose this one');
    expect((await checkCredentials(t.db, email, 'nia chose this one')).ok).toBe(true);

    const again = await addUserAction({ email, name: 'Nia again', role: 'viewer' });
    expect(again).toMatchObject({
      ok: false,
      fieldErrors: { email: 'A user with this email already exists' },
    });
    expect((await entriesFor('user.add')).filter((e) => e.target === email).map((e) => e.outcome)).toEqual([
      'success',
      'failed',
    ]);
  });

  it('sends the invitation again with a new link (the old one stops working), never after it was used', async () => {
    const admin = await signedInAs('admin');
    const email = `ray-${crypto.randomUUID()}@example.com`;
    const asked = await addUserAction({ email, name: 'Ray', role: 'viewer' });
    if (!asked.ok || asked.data.kind !== 'requested') throw new Error('not requested');
    await approvedBySecondAdmin(asked.data.id);
    const user = (await findUserByEmail(t.db, email))!;
    const first = await linkTokenFor(dataDir, email);
    const resent = await resendInvitationAction({ userId: user.id });
    expect(resent).toEqual({ ok: true, data: { email, delivered: true } });
    const second = await linkTokenFor(dataDir, email);
    expect(second).not.toBe(first);
    expect(JSON.stringify(resent)).not.toContain(second);
    const { checkInvitation } = await import('@/lib/server/invitations');
    expect(await checkInvitation(t.db, first)).toEqual({ ok: false, reason: 'replaced' });
    const audited = (await entriesFor('user.invitation_resend')).filter((e) => e.target === email);
    expect(audited.map((e) => [e.outcome, e.actorEmail])).toEqual([['success', admin.email]]);
    await acceptFromMailbox(t.db, KEY, dataDir, email);
    expect(await resendInvitationAction({ userId: user.id })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/has already used their link/),
    });
    // Not an admin: refused.
    await signedInAs('support');
    expect(await resendInvitationAction({ userId: user.id })).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses to ask for a user against a real service without SMTP_URL, before any request is filed', async () => {
    await signedInAs('admin');
    const before = (await t.db.select().from(operationRequests)).length;
    provideServices({
      database: t.handle,
      config: { ...config, sandboxMode: false },
    } as unknown as ConsoleServices);
    try {
      const email = `nomail-${crypto.randomUUID()}@example.com`;
      const result = await addUserAction({ email, name: 'No Mail', role: 'viewer' });
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/^Invitations are sent by email .* set SMTP_URL/),
      });
      expect(await t.db.select().from(operationRequests)).toHaveLength(before);
      expect(await findUserByEmail(t.db, email)).toBeUndefined();
      expect((await entriesFor('user.add')).find((e) => e.target === email)?.outcome).toBe('refused');
    } finally {
      provideServices({ database: t.handle, config } as unknown as ConsoleServices);
    }
  });

  it('maps invalid input to the form fields', async () => {
    await signedInAs('admin');
    const result = await addUserAction({ email: 'not-an-email', name: '', role: 'root' });
    expect(result).toEqual({
      ok: false,
      error: 'Check the highlighted fields.',
      fieldErrors: {
        email: 'Enter a valid email address',
        name: 'Enter a name',
        role: 'Choose a role: admin, finance, support or viewer',
      },
    });
  });

  it('refuses a viewer and audits the denial', async () => {
    const viewer = await signedInAs('viewer');
    const email = `forged-${crypto.randomUUID()}@example.com`;
    const result = await addUserAction({ email, name: 'Forged', role: 'admin' });
    expect(result).toEqual({ ok: false, error: 'You do not have permission to do this.', status: 403 });
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
    const denied = await t.db.select().from(auditLog).where(eq(auditLog.actorEmail, viewer.email));
    expect(denied.map((e) => [e.action, e.outcome])).toEqual([['userCreate.request', 'denied']]);
  });

  it('changes roles and disables others, never the admin themselves', async () => {
    const admin = await signedInAs('admin');
    const other = await createUser(t.db, {
      email: `o-${crypto.randomUUID()}@example.com`,
      name: 'O',
      role: 'viewer',
    });
    if (!other.ok) throw new Error(other.error);
    // The admin hears about configuration changes by email.
    const { saveAlertSettings } = await import('@/lib/server/alerts/settings');
    const { outboundRules } = await import('@/lib/server/alerts/outbound');
    await saveAlertSettings(
      t.db,
      admin.id,
      {
        emailEnabled: true,
        email: admin.email,
        emailEvents: ['configuration_changed'],
        chatEnabled: false,
        chatUrl: '',
        chatEvents: [],
      },
      { key: Buffer.alloc(32, 5), rules: outboundRules(undefined, false) },
    );

    expect(await changeUserRoleAction({ userId: admin.id, role: 'viewer' })).toMatchObject({
      ok: false,
      error: 'You cannot change your own role.',
    });
    expect(await disableUserAction({ userId: admin.id })).toMatchObject({
      ok: false,
      error: 'You cannot disable yourself.',
    });
    expect(await changeUserRoleAction({ userId: 'nobody', role: 'viewer' })).toMatchObject({
      ok: false,
      error: 'Unknown user',
    });

    const roleChange = await changeUserRoleAction({ userId: other.user.id, role: 'finance' });
    expect(roleChange).toMatchObject({ ok: true, data: { kind: 'requested' } });
    if (!roleChange.ok) return;
    expect((await findUserByEmail(t.db, other.user.email))?.role).toBe('viewer');
    expect(await approvedBySecondAdmin(roleChange.data.id)).toMatchObject({ ok: true });
    expect(await disableUserAction({ userId: other.user.id })).toMatchObject({ ok: true });
    expect((await findUserByEmail(t.db, other.user.email))?.disabledAt).toBeInstanceOf(Date);
    // Disabling takes effect at once and alerts like a change approved by two people.
    const alerts = await t.db.select().from(alertOutbox).where(eq(alertOutbox.userId, admin.id));
    expect(alerts.map((a) => a.subject)).toEqual(
      expect.arrayContaining([expect.stringContaining(`${other.user.email} disabled`)]),
    );
    const enabling = await enableUserAction({ userId: other.user.id });
    expect(enabling).toMatchObject({ ok: true, data: { kind: 'requested' } });
    if (!enabling.ok) return;
    expect((await findUserByEmail(t.db, other.user.email))?.disabledAt).toBeInstanceOf(Date);
    expect(await approvedBySecondAdmin(enabling.data.id)).toMatchObject({ ok: true });
    const after = await findUserByEmail(t.db, other.user.email);
    expect(after?.disabledAt).toBeNull();
    expect(after?.role).toBe('finance');
    expect(after?.roleGrantedBy).toBe(admin.id);

    const changes = await t.db.select().from(auditLog).where(eq(auditLog.target, other.user.email));
    expect(changes.map((e) => [e.action, e.outcome])).toEqual([
      ['user.change_role', 'success'],
      ['user.disable', 'success'],
      ['user.enable', 'success'],
    ]);
  });
});
