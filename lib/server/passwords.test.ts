import bcryptjs from 'bcryptjs';
import { describe, expect, it, vi } from 'vitest';

const native = vi.hoisted(() => ({ hashCalls: 0 }));
vi.mock('@node-rs/bcrypt', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/bcrypt')>();
  return {
    ...actual,
    hash: (...args: Parameters<typeof actual.hash>) => {
      native.hashCalls++;
      return actual.hash(...args);
    },
    hashSync: (...args: Parameters<typeof actual.hashSync>) => {
      native.hashCalls++;
      return actual.hashSync(...args);
    },
  };
});

describe('passwords', () => {
  it('hashes nothing when the module loads', async () => {
    const bcryptjsHashSync = vi.spyOn(bcryptjs, 'hashSync');
    await import('./passwords');
    expect(native.hashCalls).toBe(0);
    expect(bcryptjsHashSync).not.toHaveBeenCalled();
  });

  it('verifies hashes written before ($2a$ and $2b$, by bcryptjs) and refuses wrong passwords', async () => {
    const { verifyPassword } = await import('./passwords');
    const b = bcryptjs.hashSync('custody-demo', 4);
    const a = b.replace(/^\$2b\$/, '$2a$');
    expect(b.startsWith('$2b$04$')).toBe(true);
    for (const old of [a, b]) {
      expect(await verifyPassword('custody-demo', old)).toBe(true);
      expect(await verifyPassword('custody-demO', old)).toBe(false);
    }
    // A cost-12 hash as the console stored them.
    const stored = '$2a$12$tyVV5rwHeY.m8utUmlvMluA19jlPEytPzlIR9KYYjSZOeJ/dM5Nru';
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('writes cost-12 hashes that bcryptjs verifies too', async () => {
    const { hashPassword } = await import('./passwords');
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$2b\$12\$/);
    expect(bcryptjs.compareSync('correct horse battery', hash)).toBe(true);
    expect(bcryptjs.compareSync('correct horse batterY', hash)).toBe(false);
  });

  it("hashes only the demo's published password at bcrypt's lowest cost", async () => {
    const { hashPassword, PUBLISHED_PASSWORD_COST, verifyPassword } = await import('./passwords');
    const published = await hashPassword('custody-demo', PUBLISHED_PASSWORD_COST);
    expect(published).toMatch(/^\$2b\$04\$/);
    expect(await verifyPassword('custody-demo', published)).toBe(true);
    expect(await verifyPassword('custody-demO', published)).toBe(false);
  });

  it('compares unknown emails against a real cost-12 hash that no sign-in password matches', async () => {
    const { burnPasswordCheck } = await import('./passwords');
    expect(await burnPasswordCheck('no-such-user-password')).toBe(true);
    expect(await burnPasswordCheck('custody-demo')).toBe(false);
  });
});
