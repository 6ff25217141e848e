// The one error type of the custody client. Safe to log and to show: it never carries the API key, a
// request body (2FA codes, private keys) or a raw upstream body (HTML pages, stacks).

export type CustodyErrorKind = 'http' | 'timeout' | 'network' | 'malformed';

/** Where a 2xx body failed validation: paths and zod's messages, never the offending values. */
export interface CustodyErrorIssue {
  path: string;
  code: string;
  message: string;
}

export interface CustodyErrorDetails {
  reason: 'invalid-json' | 'schema';
  issues?: CustodyErrorIssue[];
}

export interface CustodyErrorInit {
  kind: CustodyErrorKind;
  /** HTTP status; 0 when no answer arrived (timeout, network failure). */
  status: number;
  message: string;
  method: string;
  path: string;
  retryAfterMs?: number;
  details?: CustodyErrorDetails;
  cause?: unknown;
}

/** 429 and 5xx mean "not now" rather than "never"; every other 4xx will fail the same way again. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

// The server is built into several bundles (instrumentation, routes, actions) that each hold their own copy of
// this class; a client made in one and an error checked in another must still agree. The brand is global.
const CUSTODY_ERROR = Symbol.for('custody-console.custody-error');

export class CustodyError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && CUSTODY_ERROR in value;
  }

  readonly [CUSTODY_ERROR] = true;
  override readonly name = 'CustodyError';
  readonly kind: CustodyErrorKind;
  readonly status: number;
  /** Whether repeating the call could succeed and is safe in principle (429, 5xx, timeout, network). */
  readonly retryable: boolean;
  /**
   * True when the upstream may have acted on the request even though we got no usable answer (timeout,
   * network failure, 5xx, unreadable 2xx). A withdraw that fails this way must be reconciled by its
   * reference, not resubmitted.
   */
  readonly outcomeUnknown: boolean;
  /** Wait the upstream asked for (Retry-After), when it sent one. */
  readonly retryAfterMs?: number;
  readonly method: string;
  /** Request path without the query string. */
  readonly path: string;
  /** Server-side diagnostics for malformed bodies; left out of `toJSON`. */
  readonly details?: CustodyErrorDetails;

  constructor(init: CustodyErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.retryable =
      init.kind === 'timeout' ||
      init.kind === 'network' ||
      (init.kind === 'http' && isRetryableStatus(init.status));
    this.outcomeUnknown =
      init.kind === 'timeout' ||
      init.kind === 'network' ||
      init.kind === 'malformed' ||
      (init.kind === 'http' && init.status >= 500);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.details !== undefined) this.details = init.details;
  }

  /** What may cross to a browser or an audit row. */
  toJSON() {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      status: this.status,
      retryable: this.retryable,
      outcomeUnknown: this.outcomeUnknown,
      retryAfterMs: this.retryAfterMs,
      method: this.method,
      path: this.path,
    };
  }
}

export function isCustodyError(error: unknown): error is CustodyError {
  return error instanceof CustodyError;
}

/** Used when the upstream gave no JSON `message` (e.g. an HTML error page from a proxy). */
export function genericMessage(status: number): string {
  switch (status) {
    case 400:
      return 'The custody service rejected the request';
    case 401:
      return 'The custody service rejected the API key';
    case 403:
      return 'The custody service refused access';
    case 404:
      return 'Not found at the custody service';
    case 409:
      return 'The custody service reported a conflict';
    case 422:
      return 'The custody service could not process the request';
    case 429:
      return 'The custody service is rate limiting requests';
    default:
      return status >= 500
        ? `The custody service failed (HTTP ${status})`
        : `The custody service answered HTTP ${status}`;
  }
}

const METHOD_NOT_FOUND = /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//i;

/**
 * True when a custody error says "this endpoint does not exist here", as opposed to "this record does not
 * exist". The rule:
 * - 405 and 501: the path is unknown for this method, or not implemented;
 * - 404 "Cannot GET /v1/..." (Express and NestJS answer an unmatched route this way);
 * - 404 without a JSON message (an HTML or empty page from a router or proxy, not the service's lookup);
 * - 404 with any wording other than the service's "<Something> not found".
 * Only a 404 whose message says "... not found" is taken as a missing record. When in doubt it answers
 * true: a caller then falls back to the spec's endpoints, whereas reading a missing endpoint as "no such
 * record" could make the console conclude that a transaction does not exist.
 */
export function isMissingEndpoint(error: unknown): boolean {
  if (!(error instanceof CustodyError) || error.kind !== 'http') return false;
  if (error.status === 405 || error.status === 501) return true;
  if (error.status !== 404) return false;
  if (METHOD_NOT_FOUND.test(error.message)) return true;
  if (error.message === genericMessage(404)) return true;
  return !/\bnot found\b/i.test(error.message);
}
