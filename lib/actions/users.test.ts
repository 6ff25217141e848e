// The user administration actions against a real database: the session decides who may act, the audit log
// keeps every attempt, and an admin cannot lock themselves out.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, type Role } from '@/lib/db/schema';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser, findUserByEmail } = await import('@/lib/server/users');
const { addUserAction, changeUserRoleAction, disableUserAction, enableUserAction } = await import('./users');

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  // The actions read the database the runtime would have wired.
  provideServices({ database: t.handle } as ConsoleServices);
});
afterAll(async () => {
  provideServices(undefined);
  await t.close();
});

async function signedInAs(role: Role) {
  const created = await createUser(t.db, {
    email: `${role}-${crypto.randomUUID()}@example.com`,
    name: role,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  state.user = { ...created.user, mustChangePassword: false };
  return created.user;
}

const entriesFor = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('user administration actions', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('adds a user with a one-time password and audits it without the password', async () => {
    await signedInAs('admin');
    const email = `nia-${crypto.randomUUID()}@example.com`;
    const result = await addUserAction({ email: ` ${email.toUpperCase()} `, name: 'Nia', role: 'support' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.email).toBe(email);
    expect(result.data.oneTimePassword).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await findUserByEmail(t.db, email))?.mustChangePassword).toBe(true);
    const entry = (await entriesFor('user.add')).find((e) => e.target === email);
    expect(entry?.outcome).toBe('success');
    expect(entry?.input).toEqual({ email, name: 'Nia', role: 'support' });
    expect(JSON.stringify(entry)).not.toContain(result.data.oneTimePassword);

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
    expect(denied.map((e) => [e.action, e.outcome])).toEqual([['users.manage', 'denied']]);
  });

  it('changes roles and disables others, never the admin themselves', async () => {
    const admin = await signedInAs('admin');
    const other = await createUser(t.db, {
      email: `o-${crypto.randomUUID()}@example.com`,
      name: 'O',
      role: 'viewer',
    });
    if (!other.ok) throw new Error(other.error);

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

    expect(await changeUserRoleAction({ userId: other.user.id, role: 'finance' })).toEqual({
      ok: true,
      data: { email: other.user.email },
    });
    expect(await disableUserAction({ userId: other.user.id })).toMatchObject({ ok: true });
    expect((await findUserByEmail(t.db, other.user.email))?.disabledAt).toBeInstanceOf(Date);
    expect(await enableUserAction({ userId: other.user.id })).toMatchObject({ ok: true });
    const after = await findUserByEmail(t.db, other.user.email);
    expect(after?.disabledAt).toBeNull();
    expect(after?.role).toBe('finance');

    const mine = await t.db.select().from(auditLog).where(eq(auditLog.actorEmail, admin.email));
    expect(mine.filter((e) => e.target === other.user.email).map((e) => [e.action, e.outcome])).toEqual([
      ['user.change_role', 'success'],
      ['user.disable', 'success'],
      ['user.enable', 'success'],
    ]);
  });
});
