// An HTTP proxy for tests that sits between a custody client and a custody service (the served sandbox)
// and injects the failures a real network and a real service produce: errors, rate limits, hangs,
// unreadable answers, resets, answers lost after the service acted, requests carried out late, and a
// service with the spec's endpoints alone.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isExtensionRequest } from '@/lib/sandbox/extensions';

export type FaultMode =
  | '500'
  | '429'
  | 'hang'
  | 'malformed'
  | 'reset'
  | 'drop-after-execution'
  | 'late'
  | 'spec-only';

export interface Fault {
  mode: FaultMode;
  /** Which requests it applies to; `path` is tested against the path below the target's prefix (`/v1/...`). */
  match?: { method?: string; path?: RegExp };
  /** How many matching requests it applies to, then it clears. Default 1 (spec-only: Infinity). */
  times?: number;
  /** '429' only: the Retry-After header, in seconds. Default 1. */
  retryAfterSeconds?: number;
  /** 'late' only: how long the request is held before it is forwarded. Default 1000. */
  lateMs?: number;
}

export interface ProxyCall {
  method: string;
  /** Below the target's prefix, without the query: `/v1/wallets/.../withdraw`. */
  path: string;
  query: Record<string, string>;
  /** Whether the request reached the service (for 'late', set once it has been forwarded). */
  forwarded: boolean;
  /** Status the client received; absent when it received none (hang, reset, drop, late). */
  status?: number;
  /** Status the service answered with, when the request was forwarded. */
  upstreamStatus?: number;
  /** The fault mode applied to this request, if any. */
  fault?: FaultMode;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface CallFilter {
  method?: string;
  /** Exact path below the prefix, or a pattern tested against it. */
  path?: string | RegExp;
}

export interface FaultProxy {
  /** The target's URL with the proxy's origin: same path prefix, e.g. http://127.0.0.1:PORT/sandbox. */
  url: string;
  /** Replaces the current fault; null clears it. */
  setFault(fault: Fault | null): void;
  /** Every request seen, in arrival order. */
  readonly calls: readonly ProxyCall[];
  /** How many requests matching the filter reached the service. */
  forwardedCount(filter?: CallFilter): number;
  /** Resolves once no forward is pending (late requests included; hanging requests never forward). */
  whenIdle(): Promise<void>;
  /** Ends hanging and held requests (held ones are never forwarded), then stops listening. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

export async function startFaultProxy({ target }: { target: string }): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const prefix = targetUrl.pathname.replace(/\/+$/, '');
  let fault: (Fault & { remaining: number }) | null = null;
  const calls: ProxyCall[] = [];
  const pending = new Set<Promise<unknown>>();
  /** Held 'late' requests: cancelling one resolves its wait so close() never leaves a timer behind. */
  const heldTimers = new Map<ReturnType<typeof setTimeout>, () => void>();
  const hanging = new Set<ServerResponse>();
  let closed = false;

  function takeFault(method: string, path: string): Fault | undefined {
    if (!fault || fault.remaining <= 0) return undefined;
    if (fault.match?.method && fault.match.method.toUpperCase() !== method) return undefined;
    if (fault.match?.path && !fault.match.path.test(path)) return undefined;
    // Spec-only applies to extension endpoints alone; everything else passes untouched and is not counted.
    if (fault.mode === 'spec-only' && !isExtensionRequest(method, path)) return undefined;
    fault.remaining -= 1;
    const taken = fault;
    if (fault.remaining <= 0) fault = null;
    return taken;
  }

  async function forward(req: IncomingMessage, body: Buffer, call: ProxyCall) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    call.forwarded = true;
    const response = await fetch(new URL(req.url ?? '/', targetUrl.origin), {
      method: call.method,
      headers,
      body:
        body.length > 0 && call.method !== 'GET' && call.method !== 'HEAD' ? new Uint8Array(body) : undefined,
      redirect: 'manual',
    });
    const text = Buffer.from(await response.arrayBuffer());
    call.upstreamStatus = response.status;
    return { response, text };
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  }

  function send(
    res: ServerResponse,
    call: ProxyCall,
    status: number,
    headers: Headers,
    body: Buffer | string,
  ) {
    if (res.destroyed) return;
    call.status = status;
    res.statusCode = status;
    headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') res.appendHeader(name, value);
    });
    res.end(body);
  }

  function json(res: ServerResponse, call: ProxyCall, status: number, payload: unknown, extra = {}) {
    send(
      res,
      call,
      status,
      new Headers({ 'content-type': 'application/json', ...extra }),
      JSON.stringify(payload),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://proxy.internal');
    let path = url.pathname;
    if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const call: ProxyCall = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      forwarded: false,
      at: Date.now(),
    };
    calls.push(call);
    const applied = takeFault(method, path);
    if (applied) call.fault = applied.mode;

    switch (applied?.mode) {
      case undefined: {
        const { response, text } = await forward(req, body, call);
        send(res, call, response.status, response.headers, text);
        return;
      }
      case '500':
        json(res, call, 500, { statusCode: 500, message: 'Injected upstream failure' });
        return;
      case '429': {
        const seconds = applied.retryAfterSeconds ?? 1;
        json(
          res,
          call,
          429,
          { statusCode: 429, message: 'Too many requests: rate limit exceeded (injected)' },
          { 'retry-after': String(seconds) },
        );
        return;
      }
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'malformed': {
        const { response } = await forward(req, body, call);
        send(
          res,
          call,
          200,
          new Headers({ 'content-type': response.headers.get('content-type') ?? '' }),
          '{"data":',
        );
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case 'drop-after-execution':
        await forward(req, body, call);
        req.socket.destroy();
        return;
      case 'late': {
        // The client gives up meanwhile; the request still reaches the service, whose answer nobody reads.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            heldTimers.delete(timer);
            resolve();
          }, applied.lateMs ?? 1000);
          heldTimers.set(timer, () => {
            clearTimeout(timer);
            heldTimers.delete(timer);
            resolve();
          });
        });
        if (closed) return;
        await forward(req, body, call);
        req.socket.destroy();
        return;
      }
      case 'spec-only':
        json(res, call, 404, { statusCode: 404, message: `Cannot ${method} ${path}` });
        return;
    }
  }

  const server = createServer((req, res) => {
    track(
      handle(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) {
          res.statusCode = 502;
          res.setHeader('content-type', 'text/plain');
          res.end('Bad Gateway: the fault proxy could not reach the target');
        } else {
          res.destroy();
        }
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const matches = (call: ProxyCall, filter: CallFilter) => {
    if (filter.method && filter.method.toUpperCase() !== call.method) return false;
    if (filter.path === undefined) return true;
    return typeof filter.path === 'string' ? filter.path === call.path : filter.path.test(call.path);
  };

  return {
    url: `${origin}${prefix}`,
    setFault(next) {
      fault = next
        ? { ...next, remaining: next.times ?? (next.mode === 'spec-only' ? Number.POSITIVE_INFINITY : 1) }
        : null;
    },
    calls,
    forwardedCount(filter = {}) {
      return calls.filter((call) => call.forwarded && matches(call, filter)).length;
    },
    async whenIdle() {
      // A hanging request holds no pending work: it simply never gets an answer.
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      closed = true;
      for (const cancel of [...heldTimers.values()]) cancel();
      for (const res of hanging) res.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...pending]);
    },
  };
}
