import 'server-only';
// The approval engine's vocabulary: who acts, what it depends on, and the sentences and small helpers every
// part of it shares.
import type { ResolutionVerdict } from '@/lib/approvals/types';
import type { TransportOptions } from '@/lib/custody';
import type { ConsoleDb } from '@/lib/db/schema';
import type { AlertSink } from '../../alerts/outbox';
import { logger } from '../../logger';
import type { LookupCapability } from '../lookup';
import type { ConfigurationServices } from '../operations/types';

export interface EngineActor {
  id: string;
  email: string;
  role: string;
  requestId?: string | null;
}

/**
 * A decision's second-factor proof, asked for once everything else lets the decision through (so a decision
 * refused anyway never asks for a code) and just before it is recorded: false refuses with `PROOF_REQUIRED`.
 * Decisions made by the console's own code (tests, the benchmark, the background round) pass none.
 */
export type DecisionProof = () => Promise<boolean>;

export const PROOF_REQUIRED = 'Confirm it is you to continue.';

/** Background work (submission after a thaw, reconciliation, following) is done in the console's name. */
export const SYSTEM_ACTOR: EngineActor = { id: 'system', email: 'system', role: 'system', requestId: null };

export interface EngineDeps {
  db: ConsoleDb;
  /** Where a wallet's custody calls go (base URL, API key, fetch); null when the wallet is not connected. */
  connectionFor(walletId: string): Promise<TransportOptions | null>;
  now?: () => Date;
  /**
   * After a lost or late answer, how long since the attempt before "the service shows no transaction with
   * the reference" may mean "not executed": longer than any plausible late execution (UNKNOWN_OUTCOME_WINDOW_MS).
   */
  unknownOutcomeWindowMs?: number;
  /** Which lookup extensions a wallet's service lacks, and how to recognise a missing endpoint. */
  capabilities?: EngineCapabilities;
  /** Follow-up of submitted and unknown requests: backoff from `baseMs` to `maxMs`, parked after `maxRounds`. */
  followUp?: Partial<FollowUpSettings>;
  /** A request left SUBMITTING this long (the process died mid-call) is treated as an unknown outcome. */
  stuckSubmittingMs?: number;
  /** What configuration kinds change besides the database (sealing, the wallet registry). */
  configuration?: ConfigurationServices;
  /** Alerts outside the console (email, chat): the outbox they are written to; none without it. */
  alerts?: AlertSink;
}

export interface EngineCapabilities {
  missing(walletId: string): Promise<Set<LookupCapability>>;
  markMissing(walletId: string, name: LookupCapability): Promise<void>;
  isMissingEndpoint(error: unknown): boolean;
}

export interface FollowUpSettings {
  baseMs: number;
  maxMs: number;
  /** Quiet rounds (nothing changed) before the request waits for a webhook or a person. */
  maxRounds: number;
  /** How long a claimed round may run before another instance may take the request. */
  leaseMs: number;
}

/** The database, or a transaction on it: a step written inside a caller's transaction takes it. */
export type Executor = Pick<ConsoleDb, 'select' | 'insert' | 'update'>;

export const FREEZE_KEY = 'freeze';
export const PAYLOAD_CHANGED =
  'The request changed after it was approved (payload hash mismatch). Nothing was sent; create a new request.';
export const log = logger.child({ component: 'approvals' });

/** "14:05 UTC": server messages name the time zone they speak in. */
export function utcTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function fail(error: string, status = 409): { ok: false; error: string; status: number } {
  return { ok: false, error, status };
}

export type { ResolutionVerdict };

export const RESOLUTION_WORDS: Record<ResolutionVerdict, string> = {
  paid: 'paid',
  not_paid: 'not paid',
  failed: 'failed',
};

/** A manual resolution waiting for (or, once confirmed, carrying) its second person. */
export interface ResolutionProposal {
  verdict: ResolutionVerdict;
  transactionIds?: string[];
  note: string;
  byId: string;
  byEmail: string;
  at: string;
  /** The request's status when it was recorded: a change since voids it. */
  status: string;
  confirmedById?: string;
  confirmedByEmail?: string;
  confirmedAt?: string;
}
