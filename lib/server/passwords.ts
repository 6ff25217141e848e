import 'server-only';
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

const COST = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

// Compared against when the email is unknown, so both paths cost the same time.
const DUMMY_HASH = bcrypt.hashSync('no-such-user-password', COST);
export function burnPasswordCheck(password: string): Promise<boolean> {
  return bcrypt.compare(password, DUMMY_HASH);
}

/** A one-time password: 20 characters from an alphabet without look-alikes. */
export function generateOneTimePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
