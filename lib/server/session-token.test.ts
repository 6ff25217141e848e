import { encode } from 'next-auth/jwt';
import { describe, expect, it, vi } from 'vitest';

// The real decode, counted: a payload kept from an earlier decryption must not be decrypted again.
const decodes = vi.hoisted(() => ({ count: 0 }));
vi.mock('next-auth/jwt', async (importOriginal) => {
  const actual = await importOriginal<typeof import('next-auth/jwt')>();
  return {
    ...actual,
    decode: async (params: Parameters<typeof actual.decode>[0]) => {
      decodes.count++;
      return actual.decode(params);
    },
  };
});

const { decodeSessionToken, secureCookiesFor, sessionCookieName, sessionTokenOf } = await import(
  './session-token'
);

const SECRET = 'a-test-secret-that-is-long-enough-for-hkdf';
const SALT = sessionCookieName(false);

const token = (claims: Record<string, unknown> = {}, maxAge = 60) =>
  encode({ token: { uid: 'u1', sid: 's1', ...claims }, secret: SECRET, salt: SALT, maxAge });

describe('the session cookie', () => {
  it('is named as Auth.js names it for the protocol of its session URL', () => {
    const h = (entries: Record<string, string>) => new Headers({ host: 'console.test', ...entries });
    expect(secureCookiesFor(h({ 'x-forwarded-proto': 'http' }), {})).toBe(false);
    expect(secureCookiesFor(h({ 'x-forwarded-proto': 'https' }), {})).toBe(true);
    // Without a forwarded protocol Auth.js assumes https.
    expect(secureCookiesFor(h({}), {})).toBe(true);
    // AUTH_URL decides over the headers.
    expect(secureCookiesFor(h({ 'x-forwarded-proto': 'https' }), { AUTH_URL: 'http://localhost:3000' })).toBe(
      false,
    );
    expect(secureCookiesFor(h({}), { NEXTAUTH_URL: 'https://console.example' })).toBe(true);
    // A URL Auth.js could not build either: no session.
    expect(() => secureCookiesFor(h({ 'x-forwarded-proto': 'https,http' }), {})).toThrow();
    expect(sessionCookieName(true)).toBe('__Secure-authjs.session-token');
    expect(sessionCookieName(false)).toBe('authjs.session-token');
  });

  it('is read from the Cookie header only, joined from its chunks', async () => {
    const name = sessionCookieName(false);
    expect(await sessionTokenOf(`other=1; ${name}=abc`, name)).toBe('abc');
    expect(await sessionTokenOf(`${name}.1=def; ${name}.0=abc`, name)).toBe('abcdef');
    expect(await sessionTokenOf('other=1', name)).toBeNull();
    // The secure name is another cookie: a plain-named one is not read for it.
    expect(await sessionTokenOf(`${name}=abc`, sessionCookieName(true))).toBeNull();
  });
});

describe('decodeSessionToken', () => {
  it('decrypts a token once and answers the same token again from what it kept', async () => {
    const raw = await token({ role: 'viewer' });
    decodes.count = 0;
    const first = await decodeSessionToken(raw, SECRET, SALT);
    const second = await decodeSessionToken(raw, SECRET, SALT);
    expect(first).toMatchObject({ uid: 'u1', sid: 's1', role: 'viewer' });
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(decodes.count).toBe(1);
    // Another salt (the secure cookie's name) or secret is another key: decrypted again, and refused.
    await expect(decodeSessionToken(raw, SECRET, sessionCookieName(true))).rejects.toThrow();
    await expect(decodeSessionToken(raw, `${SECRET}-other`, SALT)).rejects.toThrow();
  });

  it('refuses a kept token once it has expired (15 s of tolerance, as Auth.js)', async () => {
    const raw = await token({}, 60);
    const now = Date.now();
    expect(await decodeSessionToken(raw, SECRET, SALT, now)).not.toBeNull();
    expect(await decodeSessionToken(raw, SECRET, SALT, now + 70_000)).not.toBeNull();
    expect(await decodeSessionToken(raw, SECRET, SALT, now + 80_000)).toBeNull();
  });

  it('refuses a token that does not decrypt, and keeps nothing of it', async () => {
    const raw = await token();
    const tampered = `${raw.slice(0, -4)}${raw.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    decodes.count = 0;
    await expect(decodeSessionToken(tampered, SECRET, SALT)).rejects.toThrow();
    await expect(decodeSessionToken(tampered, SECRET, SALT)).rejects.toThrow();
    expect(decodes.count).toBe(2);
  });
});
