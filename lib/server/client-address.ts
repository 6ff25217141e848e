import 'server-only';
// The client's network address, as the console's own server saw it, for the sessions list and the network
// allow-list (CONSOLE_ALLOWED_CIDRS).
//
// Without TRUST_PROXY the address is the TCP peer of the connection, read from the socket (peer-address.ts):
// Next.js passes it on as X-Forwarded-For only when the request did not bring that header itself, so the header
// is the client's to write and is not read.
//
// With TRUST_PROXY=1 the console sits behind one reverse proxy that appends the address it saw to
// X-Forwarded-For (nginx `$proxy_add_x_forwarded_for`, most load balancers): the address is that last entry.
// Entries before it were written by the client or earlier hops and are not trusted.
import { headers as requestHeaders } from 'next/headers';
import { getConfig } from '@/lib/config';
import { addressInNetworks, parseNetworkList } from '@/lib/config/networks';

export { NETWORK_REFUSED } from '@/lib/config/networks';

import { currentPeerAddress } from './peer-address';

/** The client's address from a request's headers (see the top of this file); null when it is not known. */
export function resolveClientAddress(
  headers: Headers,
  options: { trustProxy: boolean; peer: string | null },
): string | null {
  if (options.trustProxy) {
    const hops = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last) return last;
  }
  return options.peer;
}

/** The client's address of a request seen by this server (the proxy's request, a route's). */
export function clientAddressOf(headers: Headers): string | null {
  return resolveClientAddress(headers, {
    trustProxy: getConfig().env.TRUST_PROXY,
    peer: currentPeerAddress(),
  });
}

/** The current request's client address, or null outside a request or when it is not known. */
export async function currentClientAddress(): Promise<string | null> {
  try {
    return clientAddressOf(await requestHeaders());
  } catch {
    return null;
  }
}

let parsed: { value: string | undefined; ranges: ReturnType<typeof rangesOf> } | null = null;
function rangesOf(value: string | undefined) {
  if (!value) return null;
  const list = parseNetworkList(value);
  // The list was validated at start-up; were it ever unreadable here, nobody is let in.
  return list.ok ? list.ranges : [];
}

/** True when no allow-list is configured or the address is in one of its networks. */
export function networkAllowed(address: string | null): boolean {
  const value = getConfig().env.CONSOLE_ALLOWED_CIDRS;
  if (!parsed || parsed.value !== value) parsed = { value, ranges: rangesOf(value) };
  const { ranges } = parsed;
  return ranges === null || addressInNetworks(address, ranges);
}

/** Whether the current request may use the console at all (the network allow-list). */
export async function requestNetworkAllowed(): Promise<boolean> {
  if (!getConfig().env.CONSOLE_ALLOWED_CIDRS) return true;
  return networkAllowed(await currentClientAddress());
}
