import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { hashPassword, verifyPassword } from './passwords';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, validateToken } from './session';
import { startSession } from './sessions';
import { checkCredentials, createUser, disableUser, LOCKOUT_DURATION_MS, setUserRole } from './users';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

describe('password hashing', () => {
  it('hashes with bcrypt and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$2[aby]\$12\$/);
    expect(hash).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });
});

describe('sign-in and lockout', () => {
  it('accepts the one-time password of a new user and flags the change', async () => {
    const created = await createUser(t.db, { email: 'New@Example.com', name: 'New', role: 'support' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.user.email).toBe('new@example.com');
    const result = await checkCredentials(t.db, 'new@example.com', created.oneTimePassword);
    expect(result.ok && result.user.mustChangePassword).toBe(true);
  });

  it('refuses a second user with the same email', async () => {
    await createUser(t.db, { email: 'dup@example.com', name: 'A', role: 'viewer' });
    const again = await createUser(t.db, { email: 'DUP@example.com', name: 'B', role: 'viewer' });
    expect(again).toEqual({ ok: false, error: 'A user with this email already exists' });
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    await createUser(t.db, { email: 'known@example.com', name: 'K', role: 'viewer' });
    expect(await checkCredentials(t.db, 'known@example.com', 'wrong')).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await checkCredentials(t.db, 'unknown@example.com', 'wrong')).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('locks an account after five failures within 15 minutes, for 15 minutes', async () => {
    const created = await createUser(t.db, { email: 'lock@example.com', name: 'L', role: 'viewer' });
    if (!created.ok) throw new Error('setup');
    const start = new Date('2026-01-01T10:00:00Z');
    for (let i = 0; i < 4; i++) {
      const at = new Date(start.getTime() + i * 60_000);
      expect((await checkCredentials(t.db, 'lock@example.com', 'nope', at)).ok).toBe(false);
    }
    const fifth = new Date(start.getTime() + 4 * 60_000);
    expect(await checkCredentials(t.db, 'lock@example.com', 'nope', fifth)).toEqual({
      ok: false,
      reason: 'locked',
    });
    // Even the right password is refused while locked.
    const during = new Date(fifth.getTime() + LOCKOUT_DURATION_MS - 1000);
    expect(await checkCredentials(t.db, 'lock@example.com', created.oneTimePassword, during)).toEqual({
      ok: false,
      reason: 'locked',
    });
    const after = new Date(fifth.getTime() + LOCKOUT_DURATION_MS + 1000);
    expect((await checkCredentials(t.db, 'lock@example.com', created.oneTimePassword, after)).ok).toBe(true);
  });

  it('does not lock when failures are spread beyond the window', async () => {
    const created = await createUser(t.db, { email: 'spread@example.com', name: 'S', role: 'viewer' });
    if (!created.ok) throw new Error('setup');
    const start = new Date('2026-01-02T10:00:00Z');
    for (let i = 0; i < 6; i++) {
      const at = new Date(start.getTime() + i * 4 * 60_000);
      expect(await checkCredentials(t.db, 'spread@example.com', 'nope', at)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('locks unknown emails the same way, so lockout reveals nothing', async () => {
    const at = new Date('2026-01-03T10:00:00Z');
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push((await checkCredentials(t.db, 'ghost@example.com', 'x', at)) as { reason?: string });
    expect(results.map((r) => r.reason)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'locked']);
  });

  it('refuses a disabled user with the generic answer', async () => {
    const created = await createUser(t.db, { email: 'off@example.com', name: 'O', role: 'viewer' });
    if (!created.ok) throw new Error('setup');
    await disableUser(t.db, created.user.id);
    expect(await checkCredentials(t.db, 'off@example.com', created.oneTimePassword)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});

describe('session validation', () => {
  async function freshSession(email: string) {
    const created = await createUser(t.db, { email, name: 'S', role: 'finance' });
    if (!created.ok) throw new Error('setup');
    const now = Date.now();
    const session = await startSession(t.db, { userId: created.user.id, now });
    return {
      user: created.user,
      token: {
        uid: created.user.id,
        sid: session.id,
        sv: created.user.sessionVersion,
        loginAt: now,
        lastSeen: now,
        role: created.user.role,
      },
      now,
    };
  }

  it('keeps a live session and moves lastSeen on', async () => {
    const { token, now } = await freshSession('live@example.com');
    const next = await validateToken(t.db, token, now + 60_000);
    expect(next?.lastSeen).toBe(now + 60_000);
    expect(next?.role).toBe('finance');
  });

  it('ends a session at once when the role changes (session version)', async () => {
    const { user, token, now } = await freshSession('role@example.com');
    await setUserRole(t.db, user.id, 'viewer');
    expect(await validateToken(t.db, token, now + 1000)).toBeNull();
  });

  it('ends a session at once when the user is disabled', async () => {
    const { user, token, now } = await freshSession('disable@example.com');
    await disableUser(t.db, user.id);
    expect(await validateToken(t.db, token, now + 1000)).toBeNull();
  });

  it('ends a session idle for more than 30 minutes', async () => {
    const { token, now } = await freshSession('idle@example.com');
    expect(await validateToken(t.db, token, now + SESSION_IDLE_MS - 1000)).not.toBeNull();
    expect(await validateToken(t.db, token, now + SESSION_IDLE_MS + 1000)).toBeNull();
  });

  it('ends a session 8 hours after sign-in however active', async () => {
    const { token, now } = await freshSession('long@example.com');
    const active = { ...token, lastSeen: now + SESSION_ABSOLUTE_MS };
    expect(await validateToken(t.db, active, now + SESSION_ABSOLUTE_MS + 1000)).toBeNull();
  });
});
