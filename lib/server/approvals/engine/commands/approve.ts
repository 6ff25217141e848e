import 'server-only';
// An approver approves a request: the final approval sends it.
import type { EngineContext } from '../context';
import type { DecisionProof, EngineActor } from '../types';
import { decide } from './decide';

export const approve = (
  ctx: EngineContext,
  {
    actor,
    id,
    twoFactorCode,
    proof,
  }: { actor: EngineActor; id: string; twoFactorCode?: string; proof?: DecisionProof },
) => decide(ctx, { actor, id, verdict: 'approve', reason: undefined, twoFactorCode, proof });
