import 'server-only';
import type { ConsoleDb } from '@/lib/db/schema';
import type { Role } from '@/lib/roles';
import { findUserById } from './users';

export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;

/** What the console keeps in its session token (signed and encrypted by next-auth). */
export interface ConsoleToken {
  uid?: string;
  role?: Role;
  /** The user's session version when the session began. */
  sv?: number;
  /** Must change the one-time password before anything else. */
  mcp?: boolean;
  loginAt?: number;
  lastSeen?: number;
  email?: string | null;
  name?: string | null;
}

/**
 * Decides whether a session still stands: absolute lifetime, idle time, and the user's current
 * session version (a disabled user, a changed role or password ends every session at once).
 */
export async function validateToken(
  db: ConsoleDb,
  token: ConsoleToken,
  now = Date.now(),
): Promise<ConsoleToken | null> {
  if (!token.uid || !token.loginAt || !token.lastSeen) return null;
  if (now - token.loginAt > SESSION_ABSOLUTE_MS) return null;
  if (now - token.lastSeen > SESSION_IDLE_MS) return null;
  const user = await findUserById(db, token.uid);
  if (!user || user.disabledAt || user.sessionVersion !== token.sv) return null;
  return { ...token, role: user.role, mcp: user.mustChangePassword, name: user.name, lastSeen: now };
}
