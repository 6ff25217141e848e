import { describe, expect, it } from 'vitest';
import { base32, newTotpSecret } from './totp-secret';

describe('TOTP secrets', () => {
  it('encodes base32 per RFC 4648, without padding', () => {
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((s) => base32(Buffer.from(s)))).toEqual([
      '',
      'MY',
      'MZXQ',
      'MZXW6',
      'MZXW6YQ',
      'MZXW6YTB',
      'MZXW6YTBOI',
    ]);
  });

  it('makes a fresh 160-bit secret each time', () => {
    const [a, b] = [newTotpSecret(), newTotpSecret()];
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(a).not.toBe(b);
  });
});
