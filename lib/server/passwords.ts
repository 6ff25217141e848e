import 'server-only';
import { randomBytes } from 'node:crypto';
// Native bcrypt: hashing and verifying run on libuv's thread pool, never on the event loop.
import { hash, verify } from '@node-rs/bcrypt';

const COST = 12;

/**
 * The sandbox's demo users share one password the README prints: its hash protects nothing, so it is made at
 * bcrypt's lowest cost and checking it costs a millisecond instead of a fifth of a second of CPU on every
 * sign-in and password confirmation of the demo. Every other password, demo users' new ones included, is hashed
 * at COST.
 */
export const PUBLISHED_PASSWORD_COST = 4;

export function hashPassword(password: string, cost: number = COST): Promise<string> {
  return hash(password, { cost });
}

/** Verifies `$2a$`, `$2b$` and `$2y$` hashes alike (the console's older hashes are `$2a$`/`$2b$`). */
export function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  return verify(password, passwordHash);
}

// Compared against when the email is unknown, so both paths cost the same time. A constant of the same
// cost as real hashes: nothing is hashed when the module loads.
const DUMMY_HASH = '$2b$12$RiOzEf4HuR6sDFOcbsgs9OfBuUUHo3xXVbhXhF7lpxgfdlu4zprcK';
export function burnPasswordCheck(password: string): Promise<boolean> {
  return verify(password, DUMMY_HASH);
}

/** A one-time password: 20 characters from an alphabet without look-alikes. */
export function generateOneTimePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
