// People of the console for tests that run actions as the server does: a signed-in session that proved its second
// factor just now (configuration changes and decisions ask for one), as the mocked `auth()` hands it to actions.
import type { ConsoleDb, Role } from '@/lib/db/schema';
import { grantDecision } from '@/lib/server/factors/step-up';
import { startSession } from '@/lib/server/sessions';
import { createUser } from '@/lib/server/users';

export interface TestPerson {
  id: string;
  email: string;
  name: string;
  role: string;
  mustChangePassword: boolean;
  sessionId: string;
}

/** A session for an existing user. */
export async function signedIn(
  db: ConsoleDb,
  user: { id: string; email: string; name: string; role: string },
): Promise<TestPerson> {
  const session = await startSession(db, { userId: user.id, stepUpAt: Date.now() });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    mustChangePassword: false,
    sessionId: session.id,
  };
}

/** A new user, controlled by nobody in the console (as seeded or bootstrapped), signed in. */
export async function newPerson(
  db: ConsoleDb,
  input: { email: string; name: string; role: Role },
): Promise<TestPerson> {
  const created = await createUser(db, input);
  if (!created.ok) throw new Error(created.error);
  return signedIn(db, created.user);
}

/**
 * Runs a decision as the browser does: the first call asks for the second factor (`stepUp`), the person proves it
 * for that payload hash (the grant `verifyStepUpAction` records after a right code), and the call runs again.
 */
export async function withSecondFactor<R>(
  db: ConsoleDb,
  person: { id: string; sessionId?: string },
  call: () => Promise<R>,
): Promise<R> {
  const first = await call();
  const asked = (first as { stepUp?: { payloadHash: string } }).stepUp;
  if (!asked) return first;
  await grantDecision(db, {
    userId: person.id,
    sessionId: person.sessionId ?? '',
    payloadHash: asked.payloadHash,
  });
  return call();
}
