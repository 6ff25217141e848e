import 'server-only';
import { listSpendingLimits, remainingLimits } from '../limits';
// The approval engine: requests, approvals, exactly-once submission, reconciliation by reference and the
// follower of submitted transactions. Free of Next.js: it takes its database and custody connections as
// dependencies, so the integration tests and the benchmark drive it against the sandbox directly.
//
// commands.ts: what people do; submission.ts: sending upstream exactly once; reconciliation.ts: follow-up,
// lookups, webhook events and the background round; queries.ts: lists and details.
import { createCommands } from './commands';
import { createEngineContext, type EngineDeps } from './context';
import { createQueries } from './queries';
import { createReconciliation } from './reconciliation';
import { createSubmission } from './submission';

export type {
  DecisionProof,
  EngineActor,
  EngineDeps,
  ResolutionProposal,
} from './context';

export type ApprovalEngine = ReturnType<typeof createApprovalEngine>;

export function createApprovalEngine(deps: EngineDeps) {
  const ctx = createEngineContext(deps);
  const submission = createSubmission(ctx);
  const reconciliation = createReconciliation(ctx, submission);
  const queries = createQueries(ctx);
  const commands = createCommands(ctx, submission, reconciliation, queries);
  return {
    typeOf: queries.typeOf,
    payloadHashOf: queries.payloadHashOf,
    preview: commands.preview,
    create: commands.create,
    hasRequest: commands.hasRequest,
    takeTokenSecret: commands.takeTokenSecret,
    takePrivateKeyReveal: commands.takePrivateKeyReveal,
    giveBackPrivateKeyReveal: commands.giveBackPrivateKeyReveal,
    approve: commands.approve,
    reject: commands.reject,
    cancel: commands.cancel,
    cancelRequestsOf: commands.cancelRequestsOf,
    resubmit: commands.resubmit,
    submitApproved: submission.submitApproved,
    submitAllApproved: submission.submitAllApproved,
    followUpRound: reconciliation.followUpRound,
    checkNow: commands.checkNow,
    proposeResolution: commands.proposeResolution,
    confirmResolution: commands.confirmResolution,
    discardResolution: commands.discardResolution,
    windowEndOf: ctx.windowEndOf,
    sync: reconciliation.sync,
    expireDue: reconciliation.expireDue,
    tick: reconciliation.tick,
    onTransactionEvent: reconciliation.onTransactionEvent,
    view: queries.view,
    abilities: queries.abilities,
    list: queries.list,
    countNeedingApproval: queries.countNeedingApproval,
    listNotifications: queries.listNotifications,
    markNotificationsRead: queries.markNotificationsRead,
    getPolicy: ctx.getPolicy,
    /** The spending limits in force, each with its description. */
    spendingLimits: () => listSpendingLimits(ctx.db),
    /** What each limit leaves a person about to request from a wallet, before an amount is typed. */
    remainingLimits: (walletId: string, requesterId: string) =>
      remainingLimits(ctx.db, { walletId, requesterId }, ctx.now()),
    updatePolicy: commands.updatePolicy,
    isFrozen: ctx.isFrozen,
    setFreeze: commands.setFreeze,
  };
}
