// Ending sessions through the actions, against a real database: one's own, anyone's for an admin, audited.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, type Role } from '@/lib/db/schema';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';

const state = vi.hoisted(() => ({
  user: null as null | {
    id: string;
    email: string;
    name: string;
    role: string;
    mustChangePassword: boolean;
    sessionId: string;
  },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser } = await import('@/lib/server/users');
const { sessionById, startSession } = await import('@/lib/server/sessions');
const { endSessionAction, endUserSessionsAction } = await import('./sessions');

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  provideServices({ database: t.handle } as ConsoleServices);
});
afterAll(async () => {
  provideServices(undefined);
  await t.close();
});

async function person(role: Role) {
  const created = await createUser(t.db, {
    email: `${role}-${crypto.randomUUID()}@example.com`,
    name: role,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  const session = await startSession(t.db, { userId: created.user.id });
  return { user: created.user, sessionId: session.id };
}

function actAs(p: Awaited<ReturnType<typeof person>>) {
  state.user = { ...p.user, mustChangePassword: false, sessionId: p.sessionId };
}

const audited = (target: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'session.end'), eq(auditLog.target, target)));

describe('session actions', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('ends one of my own sessions and audits it', async () => {
    const me = await person('viewer');
    const other = await startSession(t.db, { userId: me.user.id });
    actAs(me);
    expect(await endSessionAction({ sessionId: other.id })).toEqual({ ok: true, data: { current: false } });
    expect((await sessionById(t.db, other.id))?.endedReason).toBe('ended-by-user');
    expect((await audited(other.id))[0]).toMatchObject({ outcome: 'success', actorId: me.user.id });
    expect(await endSessionAction({ sessionId: other.id })).toMatchObject({
      ok: false,
      error: 'This session has already ended.',
    });
  });

  it("does not let a non-admin end someone else's session, and says nothing about it", async () => {
    const me = await person('finance');
    const victim = await person('support');
    actAs(me);
    expect(await endSessionAction({ sessionId: victim.sessionId })).toMatchObject({
      ok: false,
      error: 'This session is not in your list.',
    });
    expect((await sessionById(t.db, victim.sessionId))?.endedAt).toBeNull();
    expect((await audited(victim.sessionId))[0]?.outcome).toBe('failed');
  });

  it("lets an admin end anyone's session, or all of them", async () => {
    const admin = await person('admin');
    const target = await person('finance');
    const second = await startSession(t.db, { userId: target.user.id });
    actAs(admin);
    expect(await endSessionAction({ sessionId: target.sessionId })).toMatchObject({ ok: true });
    expect((await sessionById(t.db, target.sessionId))?.endedReason).toBe('ended-by-admin');
    expect(await endUserSessionsAction({ userId: target.user.id })).toEqual({ ok: true, data: { ended: 1 } });
    expect((await sessionById(t.db, second.id))?.endedReason).toBe('ended-by-admin');
    expect((await audited(target.user.id))[0]?.input).toMatchObject({
      userId: target.user.id,
      all: true,
      ended: 1,
    });
  });

  it('keeps the asking session when admins end their own sessions, and refuses others', async () => {
    const admin = await person('admin');
    const elsewhere = await startSession(t.db, { userId: admin.user.id });
    actAs(admin);
    expect(await endUserSessionsAction({ userId: admin.user.id })).toEqual({ ok: true, data: { ended: 1 } });
    expect((await sessionById(t.db, admin.sessionId))?.endedAt).toBeNull();
    expect((await sessionById(t.db, elsewhere.id))?.endedAt).not.toBeNull();

    const support = await person('support');
    actAs(support);
    expect(await endUserSessionsAction({ userId: admin.user.id })).toMatchObject({ ok: false, status: 403 });
  });

  it('answers bad input with a sentence and no session work', async () => {
    actAs(await person('viewer'));
    expect(await endSessionAction({ sessionId: "1' OR 1=1" })).toMatchObject({
      ok: false,
      error: 'Choose a session from the list',
    });
    state.user = null;
    expect(await endSessionAction({ sessionId: crypto.randomUUID() })).toMatchObject({
      ok: false,
      status: 401,
    });
  });
});
