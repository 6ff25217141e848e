import 'server-only';
// What an operation kind gives the approval engine: a payload schema, a review and a result typed by the
// kind, a USD amount, a permission pair, its default policy, when the service's answer is final, and a
// submit function. `defineOperation` closes a kind over its payload so the engine handles every kind alike.
import type { z } from 'zod';
import {
  OPERATION_KIND_WORDS,
  type OperationKind,
  type ResultOf,
  type ReviewOf,
} from '@/lib/approvals/kinds';
import type { PolicyValues } from '@/lib/approvals/policy';
import type { ConsoleDb, InvitationPurpose } from '@/lib/db/schema';
import type { InvitationSent } from '../../invitations';
import type { Action } from '../../permissions';
import type { ReviewContext, SubmitContext, SubmittedItem } from '../types';
import type { UsdAmount } from '../usd';

type FinalOutcome = 'SUCCESS' | 'FAILED';

/** A review as a kind builds it; `R` is the kind's review type. */
export interface ReviewBuilt<R> {
  review: R;
  summary: string;
  /** Exact USD value of what the request moves (decides the approvals needed); null: unknown. */
  amountUsd: UsdAmount | null;
  /** Approvals the request needs at least, whatever its amount (a contract call the console cannot value). */
  minApprovals?: number;
}

export type BuiltReview<K extends OperationKind = OperationKind> = ReviewBuilt<ReviewOf<K>>;

export interface SubmitOutcome<K extends OperationKind = OperationKind> {
  items: SubmittedItem[];
  /** Operations that finish on answer (signing): the request ends here instead of following transactions. */
  final?: FinalOutcome;
  result?: ResultOf<K>;
  /**
   * A change of the service's own settings the request made (a rule, the whitelist, a beneficiary): audited in
   * the console's name on the requester's behalf and alerted, like the changes the console makes itself.
   */
  change?: { action: string; target: string; input: Record<string, unknown> };
}

/**
 * When a kind's upstream result is final. `answer`: the service's answer to the submission settles the
 * request (signing). `settlement`: the request is followed until every item's transaction settles.
 */
type Finality = 'answer' | 'settlement';

export interface OperationType<K extends OperationKind, P extends object> {
  key: K;
  permissions: { request: Action; approve: Action };
  /** Approvals, USD threshold and expiry until an admin edits them. */
  defaultPolicy: PolicyValues;
  finality: Finality;
  /**
   * After an unknown outcome, whether the items a lookup found settle the request at once, and how.
   * Null: the found transactions are followed like any submission.
   */
  finalWhenFound(found: SubmittedItem[]): FinalOutcome | null;
  /** The submitting approver types the custody service's two-factor code (contract write and sign). */
  requiresTwoFactor?: boolean;
  payloadSchema: z.ZodType<P>;
  itemCount(payload: P): number;
  /** The child address the operation acts from, if any. */
  addressIdOf(payload: P): string | null;
  buildReview(payload: P, context: ReviewContext): Promise<BuiltReview<K>>;
  /** The requester's own reference of each item, where the form takes one: it becomes the upstream reference. */
  clientReferences?(payload: P): Array<string | undefined>;
  /** Upstream transactions an item names from the start (a retry names the transaction it retries). */
  transactionIdsOf?(payload: P): Array<string | null>;
  /** The form field a reference error belongs to (default `items.<i>.reference`). */
  referenceField?(index: number): string;
  /**
   * Whether an upstream transaction found for an item shows the operation was executed. Default: it exists.
   * A retry's transaction exists before the retry; only a change from FAILED shows the retry ran.
   */
  executed?(tx: { status: string }): boolean;
  /**
   * A kind sent upstream in several calls (a payout file): which items are still in doubt after an attempt,
   * read from the progress it stored. The engine looks only these up before going on, and never resends a
   * call the progress records as accepted. Absent: the kind is one call.
   */
  inDoubt?(previous: unknown): number[];
  /** A kind sent in several calls: the items of the calls never sent yet (none for a kind of one call). */
  unsent?(previous: unknown): number[];
  /** Sends the operation once. Throws CustodyError on failure; the engine decides what it means. */
  submit(payload: P, context: SubmitContext): Promise<SubmitOutcome<K>>;
}

/**
 * What the console gives a configuration kind that it carries out itself: what to change is in the database
 * and in the wallet registry, never at the custody service's money-moving endpoints.
 */
export interface ConfigurationServices {
  /** Seals a secret kept in a stored payload or result with the console's encryption key, bound to `binding`. */
  seal(plaintext: string, binding: string): string;
  open(sealed: string, binding: string): string;
  /** The API key arrives sealed as the wallet registry seals it (`sealApiKey`); it is opened only to store it. */
  connectWallet(
    wallet: { id: string; name: string; network: string; address: string; blockchain: string },
    apiKeySealed: string,
    createdBy: string,
  ): Promise<boolean>;
  rotateWalletKey(walletId: string, apiKeySealed: string): Promise<boolean>;
  removeWallet(walletId: string): Promise<boolean>;
  /**
   * Emails the account's owner a new invitation or reset link (older links stop working). The link goes into the
   * email only: the answer says where it went and whether it left, never the link.
   */
  sendInvitation(input: {
    userId: string;
    purpose: InvitationPurpose;
    issuedBy: string;
    requestId: string;
  }): Promise<InvitationSent>;
  /** Why invitations cannot leave this console (no mail server against a real service), or null. */
  invitationProblem(): string | null;
}

export interface LocalReviewContext {
  db: ConsoleDb;
  requestId: string;
  requesterId: string;
  getPolicy(type: string): Promise<PolicyValues>;
  /** What people call an operation kind ("Withdrawal"). */
  labelOf(type: string): string;
  /**
   * The review a wallet kind would get for `payload` at `walletId`, built as the engine builds it (a payout
   * schedule shows each run as a payout file). Refuses a payload the kind does not take.
   */
  walletReview(kind: OperationKind, walletId: string, payload: unknown): Promise<BuiltReview>;
}

export interface LocalExecuteContext {
  db: ConsoleDb;
  requestId: string;
  requester: { id: string; email: string };
  now: Date;
  services: ConfigurationServices;
  getPolicy(type: string): Promise<PolicyValues>;
  /** Sends the approved requests the freeze held (once the freeze is lifted). */
  submitHeld(): Promise<number>;
  /** The people whose approvals carried the request. */
  approverIds(): Promise<string[]>;
}

export interface LocalOutcome<K extends OperationKind = OperationKind> {
  result: ResultOf<K>;
  /** Secrets kept sealed with the result until shown once (a new API token's secret). */
  sealed?: Record<string, string>;
  /** The audit entry of the change itself; never a secret. */
  audit: { action: string; target: string; input: Record<string, unknown> };
}

/** Carrying out a request was refused by the console itself (the email is taken, the user is gone). */
export class LocalRefusal extends Error {}

/** A kind stopped before sending anything upstream; the request may be sent again by a person. */
export class SubmitRefusal extends Error {}

/** A configuration kind: reviewed from the console's own data and carried out by the console itself. */
export interface LocalOperationType<K extends OperationKind, P extends object> {
  key: K;
  permissions: { request: Action; approve: Action };
  defaultPolicy: PolicyValues;
  payloadSchema: z.ZodType<P>;
  buildReview(payload: P, context: LocalReviewContext): Promise<BuiltReview<K>>;
  execute(payload: P, context: LocalExecuteContext): Promise<LocalOutcome<K>>;
}

interface ParsedLocal<K extends OperationKind> {
  buildReview(context: LocalReviewContext): Promise<BuiltReview<K>>;
  execute(context: LocalExecuteContext): Promise<LocalOutcome<K>>;
}

/** A validated payload bound to its kind: what the engine reviews, stores and sends. */
export interface ParsedOperation<K extends OperationKind = OperationKind> {
  kind: K;
  /** A configuration kind: carried out by the console, not sent to the custody service. */
  local: ParsedLocal<K> | null;
  /** The payload as stored with the request and hashed. */
  payload: Record<string, unknown>;
  itemCount: number;
  addressId: string | null;
  clientReferences: Array<string | undefined>;
  transactionIds: Array<string | null>;
  buildReview(context: ReviewContext): Promise<BuiltReview<K>>;
  submit(context: SubmitContext): Promise<SubmitOutcome<K>>;
}

/** A registered kind as the engine sees it: its rules, and `parse` to bind a payload to it. */
export interface RegisteredOperation<K extends OperationKind = OperationKind> {
  key: K;
  /** For people: "Withdrawal", "Sign-only withdrawal" (the kind's words in lib/approvals/kinds). */
  label: string;
  /** `wallet`: sent to a wallet's custody service. `console`: a configuration change the console carries out. */
  scope: 'wallet' | 'console';
  permissions: { request: Action; approve: Action };
  requiresTwoFactor: boolean;
  defaultPolicy: PolicyValues;
  finality: Finality;
  finalWhenFound(found: SubmittedItem[]): FinalOutcome | null;
  executed(tx: { status: string }): boolean;
  referenceField(index: number): string;
  /**
   * A kind sent in several calls: the items whose call's outcome is in doubt after an attempt (null: one call,
   * every item is in doubt together).
   */
  inDoubt: ((previous: unknown) => number[]) | null;
  /** Items of calls never sent yet (always none for a kind of one call). */
  unsent(previous: unknown): number[];
  /** The payload validated against the kind's schema, or null when it does not match. */
  parse(payload: unknown): ParsedOperation<K> | null;
}

export function defineOperation<K extends OperationKind, P extends object>(
  kind: OperationType<K, P>,
): RegisteredOperation<K> {
  return {
    key: kind.key,
    label: OPERATION_KIND_WORDS[kind.key].label,
    scope: 'wallet',
    permissions: kind.permissions,
    requiresTwoFactor: kind.requiresTwoFactor === true,
    defaultPolicy: kind.defaultPolicy,
    finality: kind.finality,
    finalWhenFound: kind.finalWhenFound,
    executed: (tx) => kind.executed?.(tx) ?? true,
    referenceField: (index) => kind.referenceField?.(index) ?? `items.${index}.reference`,
    inDoubt: kind.inDoubt ?? null,
    unsent: (previous) => kind.unsent?.(previous) ?? [],
    parse(payload) {
      const parsed = kind.payloadSchema.safeParse(payload);
      if (!parsed.success) return null;
      const data = parsed.data;
      return {
        kind: kind.key,
        local: null,
        payload: Object.fromEntries(Object.entries(data)),
        itemCount: kind.itemCount(data),
        addressId: kind.addressIdOf(data),
        clientReferences: kind.clientReferences?.(data) ?? [],
        transactionIds: kind.transactionIdsOf?.(data) ?? [],
        buildReview: (context) => kind.buildReview(data, context),
        submit: (context) => kind.submit(data, context),
      };
    },
  };
}

const NOT_SENT = 'A configuration change is carried out by the console, never sent to the custody service.';

export function defineLocalOperation<K extends OperationKind, P extends object>(
  kind: LocalOperationType<K, P>,
): RegisteredOperation<K> {
  return {
    key: kind.key,
    label: OPERATION_KIND_WORDS[kind.key].label,
    scope: 'console',
    permissions: kind.permissions,
    requiresTwoFactor: false,
    defaultPolicy: kind.defaultPolicy,
    // Final when carried out: nothing upstream to follow.
    finality: 'answer',
    finalWhenFound: () => null,
    executed: () => true,
    referenceField: (index) => `items.${index}.reference`,
    inDoubt: null,
    unsent: () => [],
    parse(payload) {
      const parsed = kind.payloadSchema.safeParse(payload);
      if (!parsed.success) return null;
      const data = parsed.data;
      return {
        kind: kind.key,
        local: {
          buildReview: (context) => kind.buildReview(data, context),
          execute: (context) => kind.execute(data, context),
        },
        payload: Object.fromEntries(Object.entries(data)),
        itemCount: 0,
        addressId: null,
        clientReferences: [],
        transactionIds: [],
        buildReview: () => Promise.reject(new Error(NOT_SENT)),
        submit: () => Promise.reject(new Error(NOT_SENT)),
      };
    },
  };
}
