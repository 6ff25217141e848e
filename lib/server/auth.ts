import 'server-only';
import NextAuth, { CredentialsSignin, type DefaultSession } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getConfig } from '@/lib/config';
import type { Role } from '@/lib/db/schema';
import { signInSchema } from '@/lib/validation/users';
import { appendAudit } from './audit';
import { logger } from './logger';
import { currentDb as getDb } from './services';
import { type ConsoleToken, SESSION_IDLE_MS, validateToken } from './session';
import { checkCredentials } from './users';

declare module 'next-auth' {
  interface Session {
    user: {
      id: string;
      role: Role;
      mustChangePassword: boolean;
      sessionVersion: number;
    } & DefaultSession['user'];
  }
  interface User {
    role?: Role;
    sessionVersion?: number;
    mustChangePassword?: boolean;
  }
}

class InvalidCredentials extends CredentialsSignin {
  code = 'invalid';
}
class LockedAccount extends CredentialsSignin {
  code = 'locked';
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
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
      async authorize(raw) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const db = await getDb();
        const result = await checkCredentials(db, parsed.data.email, parsed.data.password);
        const base = {
          actorId: null,
          role: 'anonymous',
          actorEmail: parsed.data.email,
          action: 'auth.sign_in',
        };
        if (!result.ok) {
          await appendAudit(db, { ...base, outcome: result.reason === 'locked' ? 'locked' : 'failed' });
          throw result.reason === 'locked' ? new LockedAccount() : new InvalidCredentials();
        }
        const { user } = result;
        await appendAudit(db, { ...base, actorId: user.id, role: user.role, outcome: 'success' });
        return {
          id: user.id,
          email: user.email,
          name: user.name,
          role: user.role,
          sessionVersion: user.sessionVersion,
          mustChangePassword: user.mustChangePassword,
        };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      const t = token as ConsoleToken & typeof token;
      if (user) {
        const now = Date.now();
        return {
          ...token,
          uid: user.id,
          role: user.role,
          sv: user.sessionVersion,
          mcp: user.mustChangePassword,
          loginAt: now,
          lastSeen: now,
        };
      }
      const valid = await validateToken(await getDb(), t);
      return valid ? { ...token, ...valid } : null;
    },
    session({ session, token }) {
      const t = token as ConsoleToken;
      session.user = {
        ...session.user,
        id: t.uid ?? '',
        email: t.email ?? '',
        name: t.name ?? '',
        role: t.role ?? 'viewer',
        mustChangePassword: Boolean(t.mcp),
        sessionVersion: t.sv ?? 0,
      };
      return session;
    },
  },
}));
