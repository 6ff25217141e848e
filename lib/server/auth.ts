import 'server-only';
import { headers } from 'next/headers';
import NextAuth, { CredentialsSignin, type DefaultSession, type Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import Credentials from 'next-auth/providers/credentials';
import { getConfig } from '@/lib/config';
import type { Role, UserRow } from '@/lib/db/schema';
import { signInSchema } from '@/lib/validation/users';
import { appendAudit } from './audit';
import { clientAddressOf, currentClientAddress, networkAllowed } from './client-address';
import { relyingParty } from './factors/relying-party';
import { beginSecondStep, completeSecondStep, type PendingSignIn, secondStepSchema } from './factors/sign-in';
import { requiresSecondFactor } from './factors/store';
import { logger } from './logger';
import { currentDb as getDb } from './services';
import { type ConsoleToken, SESSION_IDLE_MS, validateToken } from './session';
import { decodeSessionToken, secureCookiesFor, sessionCookieName, sessionTokenOf } from './session-token';
import { endSession, startSession } from './sessions';
import type { SignInClient } from './sign-in-throttle';
import { checkCredentials } from './users';

declare module 'next-auth' {
  interface Session {
    user: {
      id: string;
      role: Role;
      mustChangePassword: boolean;
      sessionVersion: number;
      /** The session's row in `user_sessions`. */
      sessionId: string;
    } & DefaultSession['user'];
  }
  interface User {
    role?: Role;
    sessionVersion?: number;
    mustChangePassword?: boolean;
    /** When sign-in checked a second factor (ms since the epoch): the session's first step-up time. */
    secondFactorAt?: number;
  }
}

class InvalidCredentials extends CredentialsSignin {
  code = 'invalid';
}
class LockedAccount extends CredentialsSignin {
  code = 'locked';
}
/** Thrown after the right password when a second factor is due: carries the pending sign-in to the form. */
export class SecondFactorRequired extends CredentialsSignin {
  code = 'second-factor';
  constructor(readonly pending: PendingSignIn) {
    super();
  }
}
class WrongSecondFactor extends CredentialsSignin {
  code = 'second-factor-wrong';
}
class ExpiredSignIn extends CredentialsSignin {
  code = 'second-factor-expired';
}

/** What the session keeps of the person who signed in. */
function sessionUser(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    sessionVersion: user.sessionVersion,
    mustChangePassword: user.mustChangePassword,
  };
}

/** A session that already exists stands only while the server says so (its row, the user's version, idle time). */
async function revalidate(token: JWT): Promise<JWT | null> {
  const valid = await validateToken(await getDb(), token as ConsoleToken);
  return valid ? { ...token, ...valid } : null;
}

/** What server code reads of the session: the token's person, role and session row. */
function sessionOf(session: { user?: DefaultSession['user']; expires: string }, token: JWT): Session {
  const t = token as ConsoleToken;
  return {
    ...session,
    user: {
      ...session.user,
      id: t.uid ?? '',
      email: t.email ?? '',
      name: t.name ?? '',
      role: t.role ?? 'viewer',
      mustChangePassword: Boolean(t.mcp),
      sessionVersion: t.sv ?? 0,
      sessionId: t.sid ?? '',
    },
  };
}

const nextAuth = NextAuth(() => ({
  secret: getConfig().authSecret,
  trustHost: true,
  session: { strategy: 'jwt', maxAge: SESSION_IDLE_MS / 1000 },
  pages: { signIn: '/sign-in' },
  logger: {
    error: (error) => logger.error({ err: { name: error.name, message: error.message } }, 'auth error'),
    warn: (code) => logger.warn({ code }, 'auth warning'),
    debug: () => {},
  },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, request) {
        const db = await getDb();
        const config = getConfig();
        const base = { actorId: null, role: 'anonymous', action: 'auth.sign_in' };
        // Failed attempts count per client address as well as per account (sign-in-throttle.ts).
        const client: SignInClient = {
          address: clientAddressOf(request.headers),
          failureLimit: config.env.SIGN_IN_ADDRESS_FAILURES,
        };
        // A refusal because of the address names the address in the audit (the account's lockout needs no more).
        const throttledInput = (refused: { addressThrottled?: true }) =>
          refused.addressThrottled ? { addressThrottled: true, clientAddress: client.address } : {};
        // The second step: a pending sign-in (the password was right) and a code, a passkey or an enrolment.
        if (raw && typeof raw === 'object' && 'pendingId' in raw) {
          const step = secondStepSchema.safeParse(raw);
          if (!step.success) throw new InvalidCredentials();
          const rp = relyingParty(config.origin, request?.headers.get('origin'));
          const now = Date.now();
          const done = await completeSecondStep(db, config.encryptionKey, rp, step.data, now, client);
          if (!done.ok) {
            const who = done.user
              ? { actorId: done.user.id, role: done.user.role, actorEmail: done.user.email }
              : { actorEmail: '' };
            await appendAudit(db, {
              ...base,
              ...who,
              outcome: done.reason === 'locked' ? 'locked' : 'failed',
              input: { secondFactor: step.data.method, ...throttledInput(done) },
            });
            if (done.reason === 'locked') throw new LockedAccount();
            throw done.reason === 'expired' ? new ExpiredSignIn() : new WrongSecondFactor();
          }
          const { user } = done;
          await appendAudit(db, {
            ...base,
            actorId: user.id,
            role: user.role,
            actorEmail: user.email,
            outcome: 'success',
            input: { secondFactor: done.method },
          });
          return { ...sessionUser(user), secondFactorAt: now };
        }
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const result = await checkCredentials(db, parsed.data.email, parsed.data.password, new Date(), {
          secondStepDue: (user) => requiresSecondFactor(user.role),
          client,
        });
        const attempt = { ...base, actorEmail: parsed.data.email };
        if (!result.ok) {
          await appendAudit(db, {
            ...attempt,
            outcome: result.reason === 'locked' ? 'locked' : 'failed',
            input: throttledInput(result),
          });
          throw result.reason === 'locked' ? new LockedAccount() : new InvalidCredentials();
        }
        const { user } = result;
        // People who may approve prove a second factor too; the password is not asked again.
        if (requiresSecondFactor(user.role)) {
          await appendAudit(db, {
            ...attempt,
            actorId: user.id,
            role: user.role,
            outcome: 'second_factor_due',
          });
          throw new SecondFactorRequired(await beginSecondStep(db, user.id));
        }
        await appendAudit(db, { ...attempt, actorId: user.id, role: user.role, outcome: 'success' });
        return sessionUser(user);
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        if (!user.id) return null;
        const now = Date.now();
        // Sign-in starts a session on the server; the token carries only its id (plus what the page shows).
        const { userAgent, ipAddress } = await requestOrigin();
        // The network allow-list: a sign-in from elsewhere gets no session.
        if (!networkAllowed(ipAddress)) return null;
        const row = await startSession(await getDb(), {
          userId: user.id,
          userAgent,
          ipAddress,
          stepUpAt: user.secondFactorAt ?? null,
          now,
        });
        return {
          ...token,
          uid: user.id,
          sid: row.id,
          role: user.role,
          sv: user.sessionVersion,
          mcp: user.mustChangePassword,
          loginAt: now,
          lastSeen: now,
        };
      }
      return revalidate(token);
    },
    session({ session, token }) {
      return sessionOf(session, token);
    },
  },
  events: {
    // next-auth's own /api/auth/signout ends the session on the server too, not only the cookie.
    async signOut(message) {
      const sid = 'token' in message ? (message.token as ConsoleToken | null)?.sid : undefined;
      if (sid) await endSession(await getDb(), sid, 'sign-out');
    },
  },
}));

export const { handlers, signIn, signOut } = nextAuth;

/**
 * The current request's session, as Auth.js's session endpoint would answer it (the same cookie, decryption,
 * `jwt` and `session` callbacks, and no session on any error), without its round trip: no CSRF token minted and
 * no cookie re-encrypted that server code could not set anyway. The proxy, which does set it, refreshes it.
 */
async function requestSession(): Promise<Session | null> {
  const requestHeaders = await headers();
  try {
    const cookieName = sessionCookieName(secureCookiesFor(requestHeaders, process.env));
    const raw = await sessionTokenOf(requestHeaders.get('cookie') ?? '', cookieName);
    if (!raw) return null;
    const payload = await decodeSessionToken(raw, getConfig().authSecret, cookieName);
    if (!payload) throw new Error('Invalid JWT');
    const token = await revalidate(payload);
    if (!token) return null;
    const expires = new Date(Date.now() + SESSION_IDLE_MS).toISOString();
    return sessionOf(
      { user: { name: token.name, email: token.email, image: token.picture }, expires },
      token,
    );
  } catch (error) {
    // What Auth.js logs for a session it cannot read (JWTSessionError); the person is signed out.
    logger.error(
      { err: { name: 'JWTSessionError', message: error instanceof Error ? error.message : String(error) } },
      'auth error',
    );
    return null;
  }
}

/**
 * Without an argument, the current request's session (pages, layouts, actions and route handlers); with a
 * handler, Auth.js's own wrapper (the proxy, which refreshes the cookie).
 */
export const auth = ((...args: unknown[]) =>
  args.length === 0
    ? requestSession()
    : (nextAuth.auth as (...wrapped: unknown[]) => unknown)(...args)) as typeof nextAuth.auth;

/** The signing-in browser's user agent and network address, when there is a request to read them from. */
async function requestOrigin(): Promise<{ userAgent: string | null; ipAddress: string | null }> {
  let userAgent: string | null = null;
  try {
    userAgent = (await headers()).get('user-agent');
  } catch {
    // No request (a tool signing in): nothing to record.
  }
  return { userAgent, ipAddress: await currentClientAddress() };
}
