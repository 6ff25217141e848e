import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import type { Role } from '@/lib/db/schema';
import { appendAudit } from './audit';
import { auth } from './auth';
import { NETWORK_REFUSED, requestNetworkAllowed } from './client-address';
import { type Action, can } from './permissions';
import { currentDb as getDb } from './services';

export interface Actor {
  id: string;
  email: string;
  name: string;
  role: Role;
  requestId: string | null;
  /** The session's row in `user_sessions` (its step-up time, ending it). */
  sessionId: string;
}

export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | {
      ok: false;
      error: string;
      fieldErrors?: Record<string, string>;
      status?: number;
      /**
       * The action needs the second factor again first; the check is bound to this payload hash. `each`: a
       * decision, whose proof serves that one decision only.
       */
      stepUp?: { payloadHash: string; each?: boolean };
    };

async function currentRequestId(): Promise<string | null> {
  try {
    return (await headers()).get('x-request-id');
  } catch {
    return null;
  }
}

/**
 * The request's session, resolved once per request: the layouts and the page of one render (and an action's or a
 * route handler's repeated checks, where React keeps a request scope) share one decryption and one validation.
 */
const requestSession = cache(() => auth());

/** Whether the signed-in person still has to replace a one-time password (every action refuses until then). */
export async function mustChangePassword(): Promise<boolean> {
  return Boolean((await requestSession())?.user?.mustChangePassword);
}

/** The signed-in person, with the session re-validated against the database (its row, version, disabled). */
export async function currentActor(): Promise<Actor | null> {
  // Outside the network allow-list nobody is signed in (the proxy shows those addresses a page saying so).
  if (!(await requestNetworkAllowed())) return null;
  const session = await requestSession();
  const user = session?.user;
  if (!user?.id) return null;
  return {
    id: user.id,
    email: user.email ?? '',
    name: user.name ?? '',
    role: user.role,
    requestId: await currentRequestId(),
    sessionId: user.sessionId ?? '',
  };
}

export type Authorization =
  | { ok: true; actor: Actor }
  | { ok: false; status: 401 | 403; error: string; actor: Actor | null };

/**
 * The one check every server action and route handler makes: a live session, a changed one-time
 * password, and the role's permission for the action. Denials are audited.
 */
export async function authorize(action: Action, target?: string): Promise<Authorization> {
  if (!(await requestNetworkAllowed()))
    return { ok: false, status: 403, error: NETWORK_REFUSED, actor: null };
  const session = await requestSession();
  const user = session?.user;
  if (!user?.id)
    return { ok: false, status: 401, error: 'Your session has ended. Sign in again.', actor: null };
  const actor: Actor = {
    id: user.id,
    email: user.email ?? '',
    name: user.name ?? '',
    role: user.role,
    requestId: await currentRequestId(),
    sessionId: user.sessionId ?? '',
  };
  if (user.mustChangePassword) {
    return {
      ok: false,
      status: 403,
      error: 'Change your one-time password before doing anything else.',
      actor,
    };
  }
  if (!can(actor.role, action)) {
    await appendAudit(await getDb(), {
      actorId: actor.id,
      actorEmail: actor.email,
      role: actor.role,
      action,
      target,
      outcome: 'denied',
      requestId: actor.requestId,
    });
    return { ok: false, status: 403, error: 'You do not have permission to do this.', actor };
  }
  return { ok: true, actor };
}

export async function audit(
  actor: Actor,
  action: string,
  outcome: string,
  details: { target?: string | null; input?: Record<string, unknown> } = {},
) {
  return appendAudit(await getDb(), {
    actorId: actor.id,
    actorEmail: actor.email,
    role: actor.role,
    action,
    outcome,
    target: details.target,
    input: details.input,
    requestId: actor.requestId,
  });
}
