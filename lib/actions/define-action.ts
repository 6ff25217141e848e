import 'server-only';
import type { z } from 'zod';
import type { CustodyClient } from '@/lib/custody';
import { hashPayload } from '@/lib/server/approvals/hash';
import { describeFailure, WALLET_NOT_CONNECTED } from '@/lib/server/errors';
import { isFreshStepUp, stepUpTime, takeDecisionGrant } from '@/lib/server/factors/step-up';
import { type ActionResult, type Actor, audit, authorize } from '@/lib/server/guard';
import type { Action } from '@/lib/server/permissions';
import { currentDb } from '@/lib/server/services';
import { custodyFor } from '@/lib/server/wallets';
import { fieldErrorsOf } from '@/lib/validation/errors';

export type { ActionResult, Actor };

/** The one sentence for a wallet id the console holds no connection for (its home is lib/server/errors). */
export { WALLET_NOT_CONNECTED };

class WalletNotConnected extends Error {}

/** Thrown by a handler to refuse with a sentence (and optional field errors) instead of a generic failure. */
export class ActionRefusal extends Error {
  constructor(
    message: string,
    readonly fieldErrors?: Record<string, string>,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface ActionContext<I> {
  actor: Actor;
  input: I;
  /** The custody client of a connected wallet; refuses the action with one sentence when there is none. */
  custody(walletId: string): Promise<CustodyClient>;
}

interface AuditSpec<I, T> {
  /** The audit log's action name. */
  action: string;
  /** What the log keeps of the input: never a secret's value. */
  input?: (input: I, data?: T) => Record<string, unknown>;
  target?: (input: I, data?: T) => string | null | undefined;
}

export interface ActionDefinition<S extends z.ZodType, T> {
  /** The permission, fixed, or read from the parsed input (the kind of a request, say). */
  permission: Action | ((input: z.output<S>) => Action | Promise<Action>);
  input: S;
  /** Field errors are keyed below this segment of the input (see `fieldErrorsOf`). */
  fieldsUnder?: string;
  /** The banner for invalid input: a fixed sentence (the default) or the first issue's own message. */
  invalid?: 'check-fields' | 'first-issue';
  /** The audit entry's target for denials and failures. */
  target?: (input: z.output<S>) => string | undefined;
  /** The target of a denial audited before the input is read (a fixed permission): a resource name. */
  resource?: string;
  /** Success and failure are audited here; handlers whose domain audits itself leave this out. */
  audit?: AuditSpec<z.output<S>, T>;
  /** The context of a failure in the server log. */
  context: string;
  /** The audit log's name for a refused input when neither `audit` nor a fixed permission names it. */
  name?: string;
  /**
   * Asks for the second factor again when this session last proved one more than five minutes ago: the payload
   * the check is bound to (its canonical hash goes to the person's step-up and to the audit log). Never a secret.
   */
  stepUp?: (input: z.output<S>) => unknown;
  run: (ctx: ActionContext<z.output<S>>) => Promise<ActionResult<T>>;
}

/** The sentence of a step-up refusal. */
const STEP_UP_REQUIRED = 'Confirm it is you to continue.';

/**
 * The step-up check. With a fresh second factor on this session (or, for a decision, a proof made for exactly this
 * payload and not used yet, which this use consumes) the use is audited with the payload hash and null comes back;
 * otherwise the refusal naming the payload hash the person's check will be bound to.
 */
export async function checkStepUp(
  actor: Actor,
  context: string,
  payload: unknown,
  target: string | null,
  options: { each?: boolean } = {},
): Promise<ActionResult<never> | null> {
  const payloadHash = hashPayload({ action: context, payload: payload ?? null });
  const db = await currentDb();
  const each = options.each === true;
  const at = each ? null : await stepUpTime(db, actor.sessionId);
  const proved = each
    ? await takeDecisionGrant(db, { userId: actor.id, sessionId: actor.sessionId, payloadHash })
    : isFreshStepUp(at);
  if (!proved) {
    await audit(actor, 'auth.step_up_required', 'refused', {
      target,
      input: { action: context, payloadHash, ...(each ? { each } : {}) },
    });
    return { ok: false, error: STEP_UP_REQUIRED, stepUp: { payloadHash, ...(each ? { each } : {}) } };
  }
  await audit(actor, 'auth.step_up_used', 'success', {
    target,
    input: {
      action: context,
      payloadHash,
      ...(at ? { stepUpAt: at.toISOString() } : { proof: 'this decision' }),
    },
  });
  return null;
}

/**
 * Every server action is one of these: session and permission, input parsed by the form's own schema, the
 * handler, the audit entry, and a result a person can read. An unexpected failure is logged with the request
 * id and shown as one sentence; a custody failure shows the service's own message.
 */
export function defineAction<S extends z.ZodType, T = undefined>(
  def: ActionDefinition<S, T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (raw: unknown) => {
    const fixed = typeof def.permission === 'string' ? def.permission : null;
    // A fixed permission is checked before the input is read; one read from the input right after parsing.
    const early = await authorize(fixed ?? 'read', fixed ? def.resource : undefined);
    if (!early.ok) return { ok: false, error: early.error, status: early.status };
    const parsed = def.input.safeParse(raw);
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error, def.fieldsUnder);
      // A refused input is audited too: which fields were wrong, never their values.
      await audit(early.actor, def.name ?? def.audit?.action ?? fixed ?? def.context, 'invalid', {
        target: def.resource ?? null,
        input: { fields: Object.keys(fieldErrors) },
      });
      const error =
        def.invalid === 'first-issue'
          ? (parsed.error.issues[0]?.message ?? 'Check the form.')
          : 'Check the highlighted fields.';
      return { ok: false, error, fieldErrors };
    }
    const input = parsed.data as z.output<S>;
    let actor = early.actor;
    if (typeof def.permission === 'function') {
      const authz = await authorize(await def.permission(input), def.target?.(input));
      if (!authz.ok) return { ok: false, error: authz.error, status: authz.status };
      actor = authz.actor;
    }
    if (def.stepUp) {
      const refusal = await checkStepUp(actor, def.context, def.stepUp(input), def.target?.(input) ?? null);
      if (refusal) return refusal;
    }
    const ctx: ActionContext<z.output<S>> = {
      actor,
      input,
      custody: async (walletId) => {
        const client = await custodyFor(walletId);
        if (!client) throw new WalletNotConnected();
        return client;
      },
    };
    const auditAs = def.audit;
    const record = (outcome: string, data?: T) =>
      auditAs
        ? audit(actor, auditAs.action, outcome, {
            target: auditAs.target?.(input, data) ?? def.target?.(input) ?? null,
            input: auditAs.input?.(input, data),
          })
        : Promise.resolve();
    try {
      const result = await def.run(ctx);
      await record(result.ok ? 'success' : 'failed', result.ok ? result.data : undefined);
      return result;
    } catch (error) {
      // A refused or failed attempt is audited always: by the action's own entry, or by a generic one naming
      // the fields refused (handlers whose domain audits itself never reached it).
      if (auditAs) await record('failed');
      else
        await audit(
          actor,
          def.name ?? fixed ?? def.context,
          error instanceof ActionRefusal ? 'invalid' : 'failed',
          {
            target: def.target?.(input) ?? def.resource ?? null,
            input: error instanceof ActionRefusal ? { fields: Object.keys(error.fieldErrors ?? {}) } : {},
          },
        );
      if (error instanceof WalletNotConnected) return { ok: false, error: WALLET_NOT_CONNECTED, status: 404 };
      if (error instanceof ActionRefusal)
        return {
          ok: false,
          error: error.message,
          ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
          ...(error.status ? { status: error.status } : {}),
        };
      const failure = describeFailure(error, actor.requestId, def.context);
      return { ok: false, error: failure.message, status: failure.status };
    }
  };
}

/** A successful result. */
export const ok = <T>(data: T): ActionResult<T> => ({ ok: true, data });
/** A refusal with a sentence. */
export const refuse = (
  error: string,
  extra: { fieldErrors?: Record<string, string>; status?: number } = {},
) => ({ ok: false, error, ...extra }) as const;
