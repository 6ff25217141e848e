import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CustodyError } from './errors';
import { schemas } from './schemas';
import * as f from './test-fixtures';
import { buildQuery, createTransport, parseRetryAfter, path, type TransportOptions } from './transport';

const API_KEY = 'sk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const BASE = 'http://localhost:3000/sandbox';
const beneficiaryEnvelope = schemas.envelope(schemas.beneficiary);

function transport(fetch: TransportOptions['fetch'], options: Partial<TransportOptions> = {}) {
  const sleep = vi.fn(async (_ms: number) => {});
  const t = createTransport({ baseUrl: BASE, apiKey: API_KEY, fetch, sleep, random: () => 0.5, ...options });
  return { t, sleep };
}

const read = {
  method: 'GET',
  path: '/v1/wallets/w1',
  schema: beneficiaryEnvelope,
  idempotent: true,
} as const;
const withdraw = {
  method: 'POST',
  path: '/v1/wallets/w1/withdraw',
  body: { assets: [{ id: 'a', address: '0x1', amount: '1' }] },
  schema: schemas.envelope(schemas.transaction),
  idempotent: false,
} as const;

async function failure(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

function expectNoKey(error: CustodyError) {
  expect(error.message).not.toContain(API_KEY);
  expect(JSON.stringify(error)).not.toContain(API_KEY);
  expect(String(error)).not.toContain(API_KEY);
  expect(JSON.stringify(error.details ?? {})).not.toContain(API_KEY);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('requests', () => {
  it('sends the API key, accept header and a JSON body with its content type', async () => {
    const { fetch, calls } = f.fakeFetch(() =>
      f.json(f.envelope(f.transaction(), 'Withdrawal request initiated')),
    );
    const { t } = transport(fetch);
    const result = await t.request(withdraw);
    expect(result.data.id).toBe(f.TX_ID);
    expect(result.message).toBe('Withdrawal request initiated');
    const call = calls[0]!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`${BASE}/v1/wallets/w1/withdraw`);
    expect(call.headers.get('x-api-key')).toBe(API_KEY);
    expect(call.headers.get('content-type')).toBe('application/json');
    expect(call.headers.get('accept')).toBe('application/json');
    expect(JSON.parse(call.body!)).toEqual(withdraw.body);
    expect(call.signal).toBeInstanceOf(AbortSignal);
    expect(call.init.redirect).toBe('error');
    expect(call.init.cache).toBe('no-store');
  });

  it('sends no body and no content type on a GET', async () => {
    const { fetch, calls } = f.fakeFetch(() => f.json(f.envelope(f.beneficiary())));
    await transport(fetch).t.request(read);
    expect(calls[0]!.body).toBeUndefined();
    expect(calls[0]!.headers.has('content-type')).toBe(false);
  });

  it('keeps the base URL path and drops trailing slashes', async () => {
    const { fetch, calls } = f.fakeFetch(() => f.json(f.envelope(f.beneficiary())));
    await transport(fetch, { baseUrl: 'https://custody.example/api//' }).t.request({
      ...read,
      query: { page: 2, limit: 50 },
    });
    expect(calls[0]!.url).toBe('https://custody.example/api/v1/wallets/w1?page=2&limit=50');
  });

  it('rejects a missing API key or a relative base URL', () => {
    expect(() => createTransport({ baseUrl: BASE, apiKey: '' })).toThrow(/apiKey/);
    expect(() => createTransport({ baseUrl: '/sandbox', apiKey: API_KEY })).toThrow(/baseUrl/);
  });
});

describe('path and query building', () => {
  it('percent-encodes every path parameter', () => {
    expect(path`/v1/wallets/${'a/b?c#d e'}/addresses/${'x%y'}`).toBe(
      '/v1/wallets/a%2Fb%3Fc%23d%20e/addresses/x%25y',
    );
    expect(path`/v1/wallets/${'3f1c2a9e-6b1d-4c55-9a7e-1d2b3c4d5e6f'}`).toBe(
      '/v1/wallets/3f1c2a9e-6b1d-4c55-9a7e-1d2b3c4d5e6f',
    );
  });

  it('refuses parameters that URL parsing would turn into dot segments or empty segments', () => {
    expect(() => path`/v1/wallets/${'..'}/withdraw`).toThrow(TypeError);
    expect(() => path`/v1/wallets/${'.'}`).toThrow(TypeError);
    expect(() => path`/v1/wallets/${''}/withdraw`).toThrow(TypeError);
    expect(path`/v1/wallets/${'%2e%2e'}`).toBe('/v1/wallets/%252e%252e');
  });

  it('joins arrays with commas, skips empty values and stringifies the rest', () => {
    expect(
      buildQuery({
        assets: ['USDC', ' USDT ', ''],
        status: 'PENDING',
        id: undefined,
        hash: null,
        order: '',
        showPrivateKey: false,
        page: 3,
      }),
    ).toBe('?assets=USDC%2CUSDT&status=PENDING&showPrivateKey=false&page=3');
    expect(buildQuery({ search: 'a&b=c' })).toBe('?search=a%26b%3Dc');
    expect(buildQuery({ assets: [] })).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });
});

describe('error mapping', () => {
  it.each([
    [401, 'Invalid API key'],
    [403, 'Wallet does not belong to this business'],
    [404, 'Wallet not found'],
    [422, 'Insufficient balance'],
  ])('HTTP %i carries the upstream message and is not retried', async (status, message) => {
    const { fetch, calls } = f.fakeFetch(() => f.json({ statusCode: status, message }, status));
    const error = await failure(transport(fetch).t.request(read));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(error.kind).toBe('http');
    expect(error.retryable).toBe(false);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/v1/wallets/w1');
    expect(calls).toHaveLength(1);
  });

  it('joins a list of validation messages', async () => {
    const { fetch } = f.fakeFetch(() =>
      f.json({ statusCode: 400, message: ['amount must be a string', 'address is required'] }, 400),
    );
    const error = await failure(transport(fetch).t.request(withdraw));
    expect(error.message).toBe('amount must be a string; address is required');
  });

  it('replaces an HTML error page by a generic message', async () => {
    const html =
      '<html><body><h1>500 Internal Server Error</h1><pre>at Object.handler (/srv/app.js:10)</pre>';
    const { fetch } = f.fakeFetch(
      () => new Response(html, { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    const error = await failure(transport(fetch, { retries: 0 }).t.request(read));
    expect(error.status).toBe(500);
    expect(error.kind).toBe('http');
    expect(error.message).toBe('The custody service failed (HTTP 500)');
    expect(error.message).not.toMatch(/<|at Object/);
    expect(error.retryable).toBe(true);
  });

  it('keeps only the first line of an upstream message, so a stack never shows', async () => {
    const { fetch } = f.fakeFetch(() =>
      f.json({ statusCode: 400, message: 'Bad address\n    at validate (/srv/x.js:1:1)' }, 400),
    );
    const error = await failure(transport(fetch).t.request(read));
    expect(error.message).toBe('Bad address');
  });

  it('maps a 2xx body that is not JSON to malformed', async () => {
    const { fetch } = f.fakeFetch(() => new Response('<html>maintenance</html>', { status: 200 }));
    const error = await failure(transport(fetch).t.request(read));
    expect(error.kind).toBe('malformed');
    expect(error.status).toBe(200);
    expect(error.retryable).toBe(false);
    expect(error.details).toEqual({ reason: 'invalid-json' });
    expect(error.message).not.toContain('maintenance');
  });

  it('maps a schema failure to malformed with the failing path in details only', async () => {
    const { fetch } = f.fakeFetch(() => f.json(f.envelope(f.beneficiary({ isWhitelisted: 'yes' }))));
    const error = await failure(transport(fetch).t.request(read));
    expect(error.kind).toBe('malformed');
    expect(error.details?.reason).toBe('schema');
    expect(error.details?.issues?.[0]?.path).toBe('data.isWhitelisted');
    expect(error.message).not.toContain('isWhitelisted');
    expect(JSON.stringify(error)).not.toContain('isWhitelisted');
  });

  it('maps a rejected fetch to a network error with status 0', async () => {
    const { fetch } = f.fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const error = await failure(transport(fetch).t.request(withdraw));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toBe('Could not reach the custody service');
  });
});

describe('timeouts', () => {
  it('gives up on a fetch that never answers and aborts it', async () => {
    const { fetch, calls } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const error = await failure(transport(fetch, { timeoutMs: 20 }).t.request(withdraw));
    expect(error.kind).toBe('timeout');
    expect(error.status).toBe(0);
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal?.aborted).toBe(true);
  });

  it('covers a body that never finishes', async () => {
    const stalled = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data":'));
      },
    });
    const { fetch } = f.fakeFetch(() => new Response(stalled, { status: 200 }));
    const error = await failure(transport(fetch, { timeoutMs: 20 }).t.request(withdraw));
    expect(error.kind).toBe('timeout');
  });

  it('uses the configured timeout on every attempt while the budget lasts (fake timers)', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const { t, sleep } = transport(fetch, { timeoutMs: 1_000, retries: 2 });
    const pending = failure(t.request(read));
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(calls).toHaveLength(3);
    expect(sleep).toHaveBeenCalledTimes(2);
  });
});

describe('read budget', () => {
  it('tries a read twice by default', async () => {
    const { fetch, calls } = f.fakeFetch(() => f.json({ statusCode: 503, message: 'Unavailable' }, 503));
    const error = await failure(transport(fetch).t.request(read));
    expect(error.message).toBe('Unavailable');
    expect(calls).toHaveLength(2);
  });

  it('cuts an attempt to what is left of the budget and starts no retry after it (fake timers)', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const t = createTransport({
      baseUrl: BASE,
      apiKey: API_KEY,
      fetch,
      timeoutMs: 15_000,
      budgetMs: 8_000,
      retries: 3,
    });
    let settled = false;
    const pending = failure(t.request(read)).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(7_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal?.aborted).toBe(true);
  });

  it('gives the retry only the rest of the budget (fake timers)', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const t = createTransport({
      baseUrl: BASE,
      apiKey: API_KEY,
      fetch,
      timeoutMs: 5_000,
      budgetMs: 8_000,
      retries: 3,
      random: () => 0,
      sleep: async () => {},
    });
    let settled = false;
    const pending = failure(t.request(read)).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).kind).toBe('timeout');
    // 8 s spent: nothing is left for a third attempt.
    expect(calls).toHaveLength(2);
  });

  it('starts no retry when the rest of the budget cannot cover an attempt', async () => {
    let clock = 0;
    const { fetch, calls } = f.fakeFetch(() => {
      clock += 7_500;
      return f.json({ statusCode: 502, message: 'Bad gateway' }, 502);
    });
    const { t, sleep } = transport(fetch, { budgetMs: 8_000, retries: 3, now: () => clock });
    const error = await failure(t.request(read));
    expect(error.message).toBe('Bad gateway');
    expect(calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('fails at once with the service message when Retry-After is beyond the rest of the budget', async () => {
    const { fetch, calls } = f.fakeFetch(() =>
      f.json({ statusCode: 429, message: 'Slow down, please' }, 429, { 'retry-after': '10' }),
    );
    const { t, sleep } = transport(fetch, { budgetMs: 8_000 });
    const error = await failure(t.request(read));
    expect(calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(error.message).toBe('Slow down, please');
    expect(error.retryAfterMs).toBe(10_000);
  });

  it('shortens a backoff to fit the budget', async () => {
    const { fetch, calls } = f.fakeFetch((_call, index) =>
      index === 0
        ? f.json({ statusCode: 503, message: 'Unavailable' }, 503)
        : f.json(f.envelope(f.beneficiary())),
    );
    const { t, sleep } = transport(fetch, {
      budgetMs: 2_000,
      minAttemptMs: 500,
      backoffMs: 10_000,
      maxBackoffMs: 10_000,
      random: () => 0.999,
      now: () => 0,
    });
    await t.request(read);
    expect(calls).toHaveLength(2);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(1_500);
  });

  it('does not cut a money-moving call to the read budget (fake timers)', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const t = createTransport({ baseUrl: BASE, apiKey: API_KEY, fetch, timeoutMs: 15_000, budgetMs: 1_000 });
    let settled = false;
    const pending = failure(t.request(withdraw)).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(error.outcomeUnknown).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('rejects a budget that is not positive', () => {
    expect(() => createTransport({ baseUrl: BASE, apiKey: API_KEY, budgetMs: 0 })).toThrow(/budgetMs/);
  });
});

describe('retries', () => {
  it('retries a read on 503 and then succeeds', async () => {
    const { fetch, calls } = f.fakeFetch((_call, index) =>
      index === 0
        ? f.json({ statusCode: 503, message: 'Service unavailable' }, 503)
        : f.json(f.envelope(f.beneficiary())),
    );
    const { t, sleep } = transport(fetch, { backoffMs: 100 });
    const result = await t.request(read);
    expect(result.data.name).toBe('Supplier Ltd');
    expect(calls).toHaveLength(2);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(50);
  });

  it('backs off exponentially with full jitter and stops after `retries` retries', async () => {
    const { fetch, calls } = f.fakeFetch(() => f.json({ statusCode: 502, message: 'Bad gateway' }, 502));
    const { t, sleep } = transport(fetch, { retries: 3, backoffMs: 100, random: () => 0.999 });
    const error = await failure(t.request(read));
    expect(error.status).toBe(502);
    expect(calls).toHaveLength(4);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([99, 199, 399]);
  });

  it('retries a read after a network failure', async () => {
    const { fetch, calls } = f.fakeFetch((_call, index) =>
      index === 0 ? Promise.reject(new TypeError('fetch failed')) : f.json(f.envelope(f.beneficiary())),
    );
    await transport(fetch).t.request(read);
    expect(calls).toHaveLength(2);
  });

  it('sends a withdraw exactly once on 503 and reports it as retryable', async () => {
    const { fetch, calls } = f.fakeFetch(() => f.json({ statusCode: 503, message: 'Try again later' }, 503));
    const { t, sleep } = transport(fetch);
    const error = await failure(t.request(withdraw));
    expect(calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toBe('Try again later');
  });

  it('sends a withdraw exactly once on 429 too', async () => {
    const { fetch, calls } = f.fakeFetch(() =>
      f.json({ message: 'Too many requests' }, 429, { 'retry-after': '1' }),
    );
    const error = await failure(transport(fetch).t.request(withdraw));
    expect(calls).toHaveLength(1);
    expect(error.retryAfterMs).toBe(1000);
    expect(error.outcomeUnknown).toBe(false);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const { fetch, calls } = f.fakeFetch((_call, index) =>
      index === 0
        ? f.json({ statusCode: 429, message: 'Too many requests' }, 429, { 'retry-after': '2' })
        : f.json(f.envelope(f.beneficiary())),
    );
    const { t, sleep } = transport(fetch, { backoffMs: 100 });
    await t.request(read);
    expect(calls).toHaveLength(2);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(2000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-01T10:00:00Z'));
    const { fetch } = f.fakeFetch((_call, index) =>
      index === 0
        ? f.json({ message: 'Slow down' }, 503, { 'retry-after': 'Sat, 01 Mar 2025 10:00:05 GMT' })
        : f.json(f.envelope(f.beneficiary())),
    );
    const { t, sleep } = transport(fetch);
    await t.request(read);
    expect(sleep).toHaveBeenCalledExactlyOnceWith(5000);
  });

  it('does not wait out a Retry-After beyond the cap', async () => {
    const { fetch, calls } = f.fakeFetch(() =>
      f.json({ message: 'Maintenance' }, 503, { 'retry-after': '3600' }),
    );
    const { t, sleep } = transport(fetch);
    const error = await failure(t.request(read));
    expect(calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(error.retryAfterMs).toBe(3_600_000);
  });

  it('does not retry a read on 4xx or on a malformed body', async () => {
    const notFound = f.fakeFetch(() => f.json({ message: 'Not found' }, 404));
    await failure(transport(notFound.fetch).t.request(read));
    expect(notFound.calls).toHaveLength(1);
    const malformed = f.fakeFetch(() => f.json({ nope: true }));
    await failure(transport(malformed.fetch).t.request(read));
    expect(malformed.calls).toHaveLength(1);
  });

  it('parses Retry-After forms', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(' 7 ')).toBe(7000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:05 GMT', Date.parse('2025-03-01T10:00:00Z'))).toBe(5000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', Date.parse('2025-03-01T10:00:00Z'))).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('the API key never leaks into errors', () => {
  it('redacts an upstream message that echoes the key', async () => {
    const { fetch } = f.fakeFetch(() =>
      f.json({ statusCode: 401, message: `API key ${API_KEY} is revoked` }, 401),
    );
    const error = await failure(transport(fetch).t.request(read));
    expect(error.message).toBe('API key [redacted] is revoked');
    expectNoKey(error);
  });

  it.each([
    ['http', () => f.json({ message: 'nope' }, 500)],
    ['network', () => Promise.reject(new TypeError('fetch failed'))],
    ['malformed', () => new Response('not json', { status: 200 })],
    ['schema', () => f.json(f.envelope({ wrong: true }))],
  ] as const)('%s failure', async (_kind, respond) => {
    const { fetch } = f.fakeFetch(respond);
    const error = await failure(transport(fetch, { retries: 0 }).t.request(read));
    expectNoKey(error);
  });

  it('timeout failure', async () => {
    const { fetch } = f.fakeFetch(() => new Promise<Response>(() => {}));
    const error = await failure(transport(fetch, { timeoutMs: 10 }).t.request(withdraw));
    expectNoKey(error);
  });

  it('serializes only safe fields', async () => {
    const { fetch } = f.fakeFetch(() => f.json(f.envelope({ id: 1 })));
    const error = await failure(
      transport(fetch).t.request({ ...read, schema: schemas.envelope(z.object({ id: z.string() })) }),
    );
    expect(Object.keys(JSON.parse(JSON.stringify(error))).sort()).toEqual(
      ['kind', 'message', 'method', 'name', 'outcomeUnknown', 'path', 'retryable', 'status'].sort(),
    );
  });
});
