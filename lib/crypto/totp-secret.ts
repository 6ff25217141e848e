// TOTP secrets as authenticator apps take them: base32 (RFC 4648, no padding) by otplib's own encoder, for the
// console's factors, the demo users' derived secrets and the sandbox's.
import { generateSecret, ScureBase32Plugin } from 'otplib';

const encoder = new ScureBase32Plugin();

/** Bytes as base32, without padding. */
export function base32(bytes: Uint8Array): string {
  return encoder.encode(bytes);
}

/** A random 160-bit secret in base32 (RFC 4226 recommends 160 bits). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}
