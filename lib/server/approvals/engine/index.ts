import 'server-only';
import type { ResolutionVerdict } from '@/lib/approvals/types';
import { listSpendingLimits, remainingLimits } from '../limits';
import type { PolicyValues } from '../policy';
// The approval engine: requests, approvals, exactly-once submission, reconciliation by reference and the
// follower of submitted transactions. Free of Next.js: it takes its database and custody connections as
// dependencies, so the integration tests and the benchmark drive it against the sandbox directly.
//
// context.ts: what every part shares, built once per engine and passed to each part as `ctx`; commands/: what
// people do, one command a file, each a plain function of (ctx, input); submission/: sending upstream exactly
// once; reconciliation/: follow-up, lookups, webhook events and the background round; queries.ts: lists and
// details.
import { approve } from './commands/approve';
import { cancel } from './commands/cancel';
import { cancelRequestsOf } from './commands/cancel-requests-of';
import { checkNow } from './commands/check-now';
import { confirmResolution } from './commands/confirm-resolution';
import { type CreateOptions, create } from './commands/create';
import { discardResolution } from './commands/discard-resolution';
import { giveBackPrivateKeyReveal } from './commands/give-back-private-key-reveal';
import { hasRequest } from './commands/has-request';
import { preview } from './commands/preview';
import { proposeResolution } from './commands/propose-resolution';
import { reject } from './commands/reject';
import { resubmit } from './commands/resubmit';
import { setFreeze } from './commands/set-freeze';
import { takePrivateKeyReveal } from './commands/take-private-key-reveal';
import { takeTokenSecret } from './commands/take-token-secret';
import { updatePolicy } from './commands/update-policy';
import { createEngineContext } from './context';
import {
  abilities,
  countNeedingApproval,
  list,
  listNotifications,
  markNotificationsRead,
  payloadHashOf,
  typeOf,
  view,
} from './queries';
import { expireDue, sync, tick } from './reconciliation/background';
import { followUpRound } from './reconciliation/follow-up';
import { onTransactionEvent } from './reconciliation/webhook';
import { submitAllApproved, submitApproved } from './submission/send';
import type { DecisionProof, EngineActor, EngineDeps } from './types';

export type {
  DecisionProof,
  EngineActor,
  EngineDeps,
  ResolutionProposal,
} from './types';

export type ApprovalEngine = ReturnType<typeof createApprovalEngine>;

/** The engine's context, built once, and each command and query called with it (the callers' signatures). */
export function createApprovalEngine(deps: EngineDeps) {
  const ctx = createEngineContext(deps);
  return {
    typeOf: typeOf.bind(null, ctx),
    payloadHashOf: payloadHashOf.bind(null, ctx),
    preview: (actor: EngineActor, typeKey: string, scope: string, payload: unknown) =>
      preview(ctx, { actor, typeKey, scope, payload }),
    create: (
      actor: EngineActor,
      typeKey: string,
      scope: string,
      payload: unknown,
      options: CreateOptions = {},
    ) => create(ctx, { actor, typeKey, scope, payload, options }),
    hasRequest: (id: string) => hasRequest(ctx, { id }),
    takeTokenSecret: (actor: EngineActor, id: string) => takeTokenSecret(ctx, { actor, id }),
    takePrivateKeyReveal: (actor: EngineActor, id: string, target: { walletId: string; addressId: string }) =>
      takePrivateKeyReveal(ctx, { actor, id, target }),
    giveBackPrivateKeyReveal: (id: string) => giveBackPrivateKeyReveal(ctx, { id }),
    approve: (actor: EngineActor, id: string, twoFactorCode?: string, proof?: DecisionProof) =>
      approve(ctx, { actor, id, twoFactorCode, proof }),
    reject: (actor: EngineActor, id: string, reason: string, proof?: DecisionProof) =>
      reject(ctx, { actor, id, reason, proof }),
    cancel: (actor: EngineActor, id: string) => cancel(ctx, { actor, id }),
    cancelRequestsOf: (actor: EngineActor, requesterId: string, reason: string) =>
      cancelRequestsOf(ctx, { actor, requesterId, reason }),
    resubmit: (
      actor: EngineActor,
      id: string,
      twoFactorCode?: string,
      options: { acknowledged?: boolean; proof?: DecisionProof } = {},
    ) => resubmit(ctx, { actor, id, twoFactorCode, options }),
    submitApproved: submitApproved.bind(null, ctx),
    submitAllApproved: submitAllApproved.bind(null, ctx),
    followUpRound: followUpRound.bind(null, ctx),
    checkNow: (actor: EngineActor, id: string) => checkNow(ctx, { actor, id }),
    proposeResolution: (
      actor: EngineActor,
      id: string,
      input: { verdict: ResolutionVerdict; transactionIds?: string[]; note: string },
      proof?: DecisionProof,
    ) => proposeResolution(ctx, { actor, id, input, proof }),
    confirmResolution: (actor: EngineActor, id: string, proof?: DecisionProof) =>
      confirmResolution(ctx, { actor, id, proof }),
    discardResolution: (actor: EngineActor, id: string) => discardResolution(ctx, { actor, id }),
    windowEndOf: ctx.windowEndOf,
    sync: sync.bind(null, ctx),
    expireDue: expireDue.bind(null, ctx),
    tick: tick.bind(null, ctx),
    onTransactionEvent: onTransactionEvent.bind(null, ctx),
    view: view.bind(null, ctx),
    abilities: abilities.bind(null, ctx),
    list: list.bind(null, ctx),
    countNeedingApproval: countNeedingApproval.bind(null, ctx),
    listNotifications: listNotifications.bind(null, ctx),
    markNotificationsRead: markNotificationsRead.bind(null, ctx),
    getPolicy: ctx.getPolicy,
    /** The spending limits in force, each with its description. */
    spendingLimits: () => listSpendingLimits(ctx.db),
    /** What each limit leaves a person about to request from a wallet, before an amount is typed. */
    remainingLimits: (walletId: string, requesterId: string) =>
      remainingLimits(ctx.db, { walletId, requesterId }, ctx.now()),
    updatePolicy: (actor: EngineActor, type: string, values: PolicyValues) =>
      updatePolicy(ctx, { actor, type, values }),
    isFrozen: ctx.isFrozen,
    setFreeze: (actor: EngineActor, enabled: boolean) => setFreeze(ctx, { actor, enabled }),
  };
}
