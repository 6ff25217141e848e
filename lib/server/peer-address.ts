import 'server-only';
// The TCP peer of the request being handled, read from the socket itself: headers (Host, X-Forwarded-For)
// are the caller's to write, so a loopback-only rule cannot trust them.
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

const STORE = Symbol.for('custody-console.peer-address');
const INSTALLED = Symbol.for('custody-console.peer-address.installed');

type Holder = { [STORE]?: AsyncLocalStorage<string | null>; [INSTALLED]?: boolean };
const holder = globalThis as Holder;
holder[STORE] ??= new AsyncLocalStorage<string | null>();
const peers = holder[STORE];

/**
 * Every HTTP request this process serves is handled inside a context that names its socket's remote
 * address. Installed once at start-up, before the first request.
 */
export function trackPeerAddresses(): void {
  if (holder[INSTALLED]) return;
  holder[INSTALLED] = true;
  const emit = http.Server.prototype.emit as (
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) => boolean;
  http.Server.prototype.emit = function emitWithPeer(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage | undefined;
      return peers.run(request?.socket?.remoteAddress ?? null, () => emit.apply(this, [event, ...args]));
    }
    return emit.apply(this, [event, ...args]);
  } as typeof http.Server.prototype.emit;
}

/** The remote address of the socket the current request came in on; null when it is not known. */
export function currentPeerAddress(): string | null {
  return peers.getStore() ?? null;
}

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv6-mapped address. */
export function isLoopbackAddress(address: string | null): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
