import 'server-only';
// HTTP to the custody API: auth header, timeouts, envelope validation, error mapping, and retries for
// reads only, inside one time budget per read.
import type { z } from 'zod';
import { backoffDelay } from '@/lib/backoff';
import { untilAborted } from './abort';
import { CustodyError, type CustodyErrorIssue, genericMessage } from './errors';

/** Any `fetch`: the global one, or the embedded sandbox's in-process handler. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** May carry a path prefix, e.g. `http://localhost:3000/sandbox`. */
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  /**
   * Per attempt, covering the answer's body too. A non-idempotent call (money-moving, signing) gets exactly
   * this; an idempotent one gets at most this and never more than what is left of its budget.
   */
  timeoutMs?: number;
  /**
   * Total time of one idempotent call, retries and waits included: a page waits at most this long for a
   * failing or hanging service before it can show the service's message.
   */
  budgetMs?: number;
  /** A retry starts only when at least this much of the budget is left after the wait. */
  minAttemptMs?: number;
  /** Extra attempts for idempotent calls; non-idempotent calls are sent once. */
  retries?: number;
  /** Base of the exponential backoff: attempt n waits up to backoffMs * 2^n (full jitter). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited out inside a request; the error is thrown instead. */
  maxRetryAfterMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Clock of the budget (milliseconds). */
  now?: () => number;
}

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | readonly string[] | null | undefined;

interface RequestSpec<T> {
  method: HttpMethod;
  /** Already encoded: build it with `path` below. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema of the whole envelope. */
  schema: z.ZodType<T>;
  /**
   * True only when sending the request twice has the same effect as once. Money-moving and signing calls
   * must pass false: a blind retry after a lost answer could pay twice.
   */
  idempotent: boolean;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>): Promise<T>;
}

/**
 * Builds a request path, percent-encoding every interpolated parameter, so an id cannot add path segments
 * or a query string.
 */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < params.length; i++) {
    out += encodePathParam(params[i] ?? '') + (strings[i + 1] ?? '');
  }
  return out;
}

function encodePathParam(value: string): string {
  // URL parsing resolves `.`/`..` segments (also when written as %2e), which would retarget the request.
  if (value === '' || value === '.' || value === '..') {
    throw new TypeError('Invalid custody path parameter');
  }
  return encodeURIComponent(value);
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    // The spec's list filters take comma-separated values (e.g. `assets`).
    const text = Array.isArray(value)
      ? value
          .map((item: string) => item.trim())
          .filter(Boolean)
          .join(',')
      : String(value);
    if (text === '') continue;
    params.append(name, text);
  }
  const encoded = params.toString();
  return encoded === '' ? '' : `?${encoded}`;
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTransport(options: TransportOptions): Transport {
  const {
    apiKey,
    timeoutMs = 15_000,
    budgetMs = 8_000,
    minAttemptMs = 1_000,
    retries = 1,
    backoffMs = 250,
    maxBackoffMs = 5_000,
    maxRetryAfterMs = 30_000,
    random = Math.random,
    sleep = defaultSleep,
    now = Date.now,
  } = options;
  if (!apiKey) throw new TypeError('Custody transport: apiKey is required');
  if (!URL.canParse(options.baseUrl))
    throw new TypeError('Custody transport: baseUrl must be an absolute URL');
  if (!(timeoutMs > 0)) throw new TypeError('Custody transport: timeoutMs must be positive');
  if (!(budgetMs > 0)) throw new TypeError('Custody transport: budgetMs must be positive');
  if (!Number.isInteger(retries) || retries < 0) {
    throw new TypeError('Custody transport: retries must be a non-negative integer');
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  // An upstream message may echo what it was sent; the key must not travel on in an error.
  const redact = (text: string) => text.split(apiKey).join('[redacted]');

  async function attempt<T>(spec: RequestSpec<T>, url: string, attemptTimeoutMs: number): Promise<T> {
    const where = { method: spec.method, path: spec.path };
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': apiKey };
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, attemptTimeoutMs);

    let response: Response;
    let text: string;
    try {
      const init: RequestInit = {
        method: spec.method,
        headers,
        signal: controller.signal,
        // Custody answers carry balances and secrets: never let Next's data cache keep them.
        cache: 'no-store',
        // fetch re-sends custom headers on a cross-origin redirect, which would hand the key to that origin.
        redirect: 'error',
      };
      if (body !== undefined) init.body = body;
      // Raced against the signal as well, so a fetch that ignores it still cannot hang the caller.
      response = await untilAborted(fetchImpl(url, init), controller.signal);
      text = await untilAborted(response.text(), controller.signal);
    } catch (error) {
      if (timedOut) {
        throw new CustodyError({
          ...where,
          kind: 'timeout',
          status: 0,
          message: 'The custody service did not answer in time',
        });
      }
      throw new CustodyError({
        ...where,
        kind: 'network',
        status: 0,
        message: 'Could not reach the custody service',
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }

    if (!response.ok) {
      const upstream = upstreamMessage(text);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      throw new CustodyError({
        ...where,
        kind: 'http',
        status: response.status,
        message: redact(upstream ?? genericMessage(response.status)),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CustodyError({
        ...where,
        kind: 'malformed',
        status: response.status,
        message: 'The custody service sent an unreadable answer',
        details: { reason: 'invalid-json' },
      });
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw new CustodyError({
        ...where,
        kind: 'malformed',
        status: response.status,
        message: 'The custody service sent an answer of an unexpected shape',
        details: { reason: 'schema', issues: parsed.error.issues.slice(0, 20).map(toIssue) },
      });
    }
    return parsed.data;
  }

  /**
   * The wait before the next attempt, or undefined when there is to be none: a Retry-After beyond the cap
   * or beyond what is left of the budget fails now with the service's message, rather than after a wait
   * that could not end in an answer anyway.
   */
  function delayBeforeRetry(
    attemptIndex: number,
    retryAfterMs: number | undefined,
    leftMs: number,
  ): number | undefined {
    // A small budget still leaves room for a retry: the floor never exceeds a quarter of it.
    const room = leftMs - Math.min(minAttemptMs, budgetMs / 4);
    if (room < 0) return undefined;
    const jittered = Math.min(
      backoffDelay(attemptIndex, { baseMs: backoffMs, capMs: maxBackoffMs }, random),
      room,
    );
    if (retryAfterMs === undefined) return jittered;
    if (retryAfterMs > maxRetryAfterMs || retryAfterMs > room) return undefined;
    return Math.max(retryAfterMs, jittered);
  }

  return {
    async request<T>(spec: RequestSpec<T>): Promise<T> {
      const url = baseUrl + spec.path + buildQuery(spec.query);
      // Only retried calls run on a budget; a money-moving call is sent once with its own timeout.
      const attempts = spec.idempotent ? retries + 1 : 1;
      const started = now();
      const left = () => (spec.idempotent ? budgetMs - (now() - started) : Number.POSITIVE_INFINITY);
      for (let index = 0; ; index++) {
        try {
          return await attempt(spec, url, Math.max(1, Math.min(timeoutMs, left())));
        } catch (error) {
          if (!(error instanceof CustodyError) || !error.retryable || index + 1 >= attempts) throw error;
          const delay = delayBeforeRetry(index, error.retryAfterMs, left());
          if (delay === undefined) throw error;
          await sleep(delay);
        }
      }
    },
  };
}

const MAX_MESSAGE_LENGTH = 300;

/**
 * The `message` of a JSON error body (`{ statusCode, message }`; NestJS-style services send a list of
 * validation messages). Anything else (HTML, plain text) is ignored so it never reaches a person.
 */
function upstreamMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const raw = (body as { message?: unknown }).message;
  const message =
    typeof raw === 'string'
      ? raw
      : Array.isArray(raw) && raw.every((item) => typeof item === 'string')
        ? raw.join('; ')
        : undefined;
  if (message === undefined) return undefined;
  // First line only: a stack trace starts on the second.
  const firstLine = (message.split('\n')[0] ?? '').trim();
  if (firstLine === '') return undefined;
  return firstLine.length > MAX_MESSAGE_LENGTH ? `${firstLine.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : firstLine;
}

function toIssue(issue: z.core.$ZodIssue): CustodyErrorIssue {
  return { path: issue.path.map(String).join('.') || '(root)', code: issue.code, message: issue.message };
}
