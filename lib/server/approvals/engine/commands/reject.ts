import 'server-only';
// An approver rejects a request, with the reason the requester is told.
import type { EngineContext } from '../context';
import type { DecisionProof, EngineActor } from '../types';
import { decide } from './decide';

export const reject = (
  ctx: EngineContext,
  { actor, id, reason, proof }: { actor: EngineActor; id: string; reason: string; proof?: DecisionProof },
) => decide(ctx, { actor, id, verdict: 'reject', reason, twoFactorCode: undefined, proof });
