import 'server-only';
// Sign-in throttling per client address, beside the lockout per account (users.ts): one address trying many
// emails (each below its own account's limit) is stopped too. Failed attempts are rows of `login_attempts`
// carrying the address that made them, so console instances on one PostgreSQL count them together.
//
// Past the limit, every sign-in from the address (any email, known or not, right password or not) is answered as a
// locked account, until its failures are older than the window. Refused attempts are not counted again (as with
// the account lockout). Successes neither count nor clear the count: whoever holds one valid account must not be
// able to wipe the record of their guesses at everyone else's.
import { and, count, eq, gt, lte } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { type ConsoleDb, loginAttempts } from '@/lib/db/schema';

/** The window the failures of one address are counted in (the same 15 minutes as an account's). */
export const ADDRESS_WINDOW_MS = 15 * 60 * 1000;

/** Who is signing in, as the throttle sees it: the client's address and how many failures it may make. */
export interface SignInClient {
  /** The client address (`clientAddressOf`); null when not known, and then only the account's lockout applies. */
  address: string | null;
  /** Failures the address may make in the window (SIGN_IN_ADDRESS_FAILURES). */
  failureLimit: number;
}

/** The longest key stored for an address that is not one (it came through a trusted proxy's header). */
const MAX_KEY_LENGTH = 64;

/**
 * What one client is counted as: an IPv4 address (also when written IPv4-mapped, as Node reports IPv4 clients on
 * a dual-stack socket), or an IPv6 address's /64. One subscriber is handed a whole /64 and may use any address in
 * it, so counting IPv6 addresses one by one would let them try without end.
 */
export function throttleKeyOf(address: string | null | undefined): string | null {
  const raw = address?.trim().replace(/%.*$/, '');
  if (!raw) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(raw);
  } catch {
    return raw.toLowerCase().slice(0, MAX_KEY_LENGTH);
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const [a = 0, b = 0, c = 0, d = 0] = (parsed as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}

/** Whether the address (a `throttleKeyOf` key) has made as many failed sign-ins as it may in the window to `now`. */
export async function addressThrottled(
  db: ConsoleDb,
  key: string | null,
  failureLimit: number,
  now: Date,
): Promise<boolean> {
  if (!key) return false;
  const since = new Date(now.getTime() - ADDRESS_WINDOW_MS);
  const [row] = await db
    .select({ failures: count() })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.clientAddress, key),
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.at, since),
        lte(loginAttempts.at, now),
      ),
    );
  return (row?.failures ?? 0) >= failureLimit;
}
