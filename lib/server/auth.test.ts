// Sign-in through auth.ts's credentials provider, against a real database: the client address comes from the
// request as `clientAddressOf` reads it, a refusal because of that address is the locked account's answer for any
// email, and each refusal is audited with the address.
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '@/lib/db/schema';
import type { ConsoleServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';

type Authorize = (raw: unknown, request: Request) => Promise<unknown>;
const captured = vi.hoisted(() => ({
  config: null as null | (() => { providers: { authorize: Authorize }[] }),
}));

// NextAuth's configuration as auth.ts builds it, so its provider's `authorize` can be called directly.
vi.mock('next-auth', () => ({
  default: (config: typeof captured.config) => {
    captured.config = config;
    return { handlers: {}, signIn: vi.fn(), signOut: vi.fn(), auth: vi.fn() };
  },
  CredentialsSignin: class CredentialsSignin extends Error {
    code = 'credentials';
  },
}));
vi.mock('next/headers', () => ({ headers: async () => new Headers() }));
vi.mock('next-auth/providers/credentials', () => ({ default: (options: unknown) => options }));
// Behind one trusted proxy (the address is the last X-Forwarded-For entry), three failures per address.
vi.mock('@/lib/config', async () => {
  const { parseEnv } = await import('@/lib/config/env');
  const config = {
    env: parseEnv({ TRUST_PROXY: '1', SIGN_IN_ADDRESS_FAILURES: '3' }),
    sandboxMode: true,
    dataDir: '',
    authSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32),
    origin: 'https://console.example.com',
  };
  return { getConfig: () => config };
});

const { provideServices } = await import('@/lib/server/services');
const { createUser } = await import('@/lib/server/users');
await import('./auth');

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  provideServices({ database: t.handle } as ConsoleServices);
});
afterAll(async () => {
  provideServices(undefined);
  await t.close();
});

function authorize(email: string, password: string, forwardedFor: string) {
  const provider = captured.config?.().providers[0];
  if (!provider) throw new Error('auth.ts configured no provider');
  return provider.authorize(
    { email, password },
    new Request('https://console.example.com/api/auth/callback/credentials', {
      method: 'POST',
      // The client wrote the first entry; the proxy appended the address it saw.
      headers: { 'x-forwarded-for': `10.0.0.1, ${forwardedFor}` },
    }),
  );
}

const audited = (email: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.sign_in'), eq(auditLog.actorEmail, email)))
    .orderBy(asc(auditLog.id));

describe('sign-in from an address past its limit', () => {
  it('answers as a locked account for any email, right password included, and audits each refusal', async () => {
    const created = await createUser(t.db, {
      email: 'ann-throttle@example.com',
      name: 'Ann',
      role: 'viewer',
    });
    if (!created.ok) throw new Error(created.error);
    const { email, password } = { email: created.user.email, password: created.oneTimePassword };
    const strangers = ['x1', 'x2', 'x3', 'x4'].map(
      (s) => `${s}-${randomBytes(3).toString('hex')}@example.com`,
    );

    await expect(authorize(strangers[0]!, 'guess', '203.0.113.60')).rejects.toMatchObject({
      code: 'invalid',
    });
    await expect(authorize(strangers[1]!, 'guess', '203.0.113.60')).rejects.toMatchObject({
      code: 'invalid',
    });
    // The third failure reaches the limit: answered as locked, like the attempts after it.
    await expect(authorize(strangers[2]!, 'guess', '203.0.113.60')).rejects.toMatchObject({ code: 'locked' });
    await expect(authorize(email, password, '203.0.113.60')).rejects.toMatchObject({ code: 'locked' });
    await expect(authorize(strangers[3]!, 'guess', '203.0.113.60')).rejects.toMatchObject({ code: 'locked' });
    // Another client (the proxy's entry decides, not the one the client wrote) signs in.
    expect(await authorize(email, password, '203.0.113.61')).toMatchObject({ email });

    const refusal = { outcome: 'locked', input: { addressThrottled: true, clientAddress: '203.0.113.60' } };
    expect(await audited(email)).toMatchObject([refusal, { outcome: 'success', input: {} }]);
    expect(await audited(strangers[3]!)).toMatchObject([refusal]);
    expect(await audited(strangers[2]!)).toMatchObject([refusal]);
    expect(await audited(strangers[0]!)).toMatchObject([{ outcome: 'failed', input: {} }]);
  });
});
