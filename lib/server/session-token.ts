import 'server-only';
// The session cookie read the way Auth.js's session endpoint reads it (same cookie name and chunks, same
// decryption and expiry rules), without the rest of that endpoint: server code cannot set the cookie it would
// re-encrypt, nor use the CSRF token it would mint. Decrypting the same cookie again gives the same payload, so
// a decrypted payload is kept (by the cookie's hash) and only its expiry is checked again.
import { createHash } from 'node:crypto';
import { decode, getToken, type JWT } from 'next-auth/jwt';

/** jose's tolerance in Auth.js's decode: a token counts as expired 15 s after its `exp`. */
const CLOCK_TOLERANCE_S = 15;
/** Decrypted payloads kept per process; beyond it the oldest go first. */
const MAX_KEPT = 1_000;

/**
 * Whether Auth.js names its cookies `__Secure-…` for this request: the protocol of the URL it builds for its
 * session endpoint (AUTH_URL or NEXTAUTH_URL, else x-forwarded-proto and the host, else https), as @auth/core's
 * createActionURL does. A URL it could not build throws, as it does there (no session).
 */
export function secureCookiesFor(headers: Headers, env: Record<string, string | undefined>): boolean {
  const envUrl = env.AUTH_URL ?? env.NEXTAUTH_URL;
  if (envUrl) return new URL(envUrl).protocol === 'https:';
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  const detected = headers.get('x-forwarded-proto') ?? 'https';
  const protocol = detected.endsWith(':') ? detected : `${detected}:`;
  return new URL(`${protocol}//${host}`).protocol === 'https:';
}

/** The session cookie's name (also the salt of its key), as Auth.js's default cookies name it. */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? '__Secure-' : ''}authjs.session-token`;
}

/** The session token of a Cookie header (joined from its chunks), or null when there is none. */
export async function sessionTokenOf(cookieHeader: string, cookieName: string): Promise<string | null> {
  // Only the cookie: Auth.js's session endpoint reads no Authorization header.
  const token = await getToken({ req: { headers: { cookie: cookieHeader } }, cookieName, raw: true });
  return token || null;
}

interface Kept {
  payload: JWT;
  exp: number | undefined;
  nbf: number | undefined;
}

const kept = new Map<string, Kept>();

function stillValid(entry: Kept, nowSeconds: number): boolean {
  if (entry.exp !== undefined && entry.exp <= nowSeconds - CLOCK_TOLERANCE_S) return false;
  if (entry.nbf !== undefined && entry.nbf > nowSeconds + CLOCK_TOLERANCE_S) return false;
  return true;
}

function keep(key: string, entry: Kept, nowSeconds: number) {
  if (kept.size >= MAX_KEPT) {
    for (const [k, v] of kept) if (!stillValid(v, nowSeconds)) kept.delete(k);
    while (kept.size >= MAX_KEPT) {
      const oldest = kept.keys().next();
      if (oldest.done) break;
      kept.delete(oldest.value);
    }
  }
  kept.set(key, entry);
}

/**
 * The token's payload, decrypted and checked by Auth.js's own `decode` (the first time) or taken from what an
 * earlier decryption of the same token gave, with its expiry checked again. Throws what `decode` throws.
 */
export async function decodeSessionToken(
  token: string,
  secret: string | string[],
  salt: string,
  now = Date.now(),
): Promise<JWT | null> {
  const nowSeconds = Math.floor(now / 1000);
  // By hash (of the secrets and salt too): the map never holds a usable token.
  const hash = createHash('sha256');
  for (const part of [...(Array.isArray(secret) ? secret : [secret]), salt]) hash.update(part).update('\0');
  const key = hash.update(token).digest('base64url');
  const hit = kept.get(key);
  if (hit) {
    if (stillValid(hit, nowSeconds)) return hit.payload;
    kept.delete(key);
  }
  const payload = await decode({ token, secret, salt });
  if (!payload) return null;
  const entry: Kept = {
    payload: Object.freeze(payload),
    exp: typeof payload.exp === 'number' ? payload.exp : undefined,
    nbf: typeof payload.nbf === 'number' ? payload.nbf : undefined,
  };
  if (!stillValid(entry, nowSeconds)) return null;
  keep(key, entry, nowSeconds);
  return entry.payload;
}
