import 'server-only';
import dns from 'node:dns';
// Where a chat webhook may point. A URL a person types is a request the server makes on their behalf: without
// this check it could reach the console's own network (metadata services, databases, admin ports). Only public
// unicast addresses are reached, plus the networks an operator lists; the address is checked again on every
// connection (the socket's own lookup), so a name that later resolves elsewhere is refused too.
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressInNetworks, type NetworkList, parseNetworkList } from '@/lib/config/networks';

type Ranges = Extract<NetworkList, { ok: true }>['ranges'];

export interface OutboundRules {
  /** Private networks an operator allows (ALERT_WEBHOOK_CIDRS). */
  allowed: Ranges;
  /** Sandbox mode: the demo runs on one machine, so loopback receivers are allowed. */
  allowLoopback: boolean;
}

export function outboundRules(allowedCidrs: string | undefined, allowLoopback: boolean): OutboundRules {
  const list = parseNetworkList(allowedCidrs ?? '');
  return { allowed: list.ok ? list.ranges : [], allowLoopback };
}

/** Whether a connection to this address is allowed. */
function addressPermitted(address: string, rules: OutboundRules): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/%.*$/, ''));
  } catch {
    return false;
  }
  const range = parsed.range();
  if (range === 'unicast') return true;
  if (rules.allowLoopback && range === 'loopback') return true;
  return addressInNetworks(parsed.toString(), rules.allowed);
}

const OUTBOUND_REFUSED =
  'This address is on a private or internal network; the console sends alerts to public addresses only.';

/** Why a webhook URL is refused, or null when every address it resolves to may be reached. */
export async function outboundUrlProblem(url: string, rules: OutboundRules): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter a full URL such as https://hooks.slack.com/services/…';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'Use an https:// address';
  if (parsed.username || parsed.password) return 'Leave the user name and password out of the address';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host)
      ? [host]
      : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return 'This host name does not resolve';
  }
  if (addresses.length === 0) return 'This host name does not resolve';
  return addresses.every((a) => addressPermitted(a, rules)) ? null : OUTBOUND_REFUSED;
}

/** A socket lookup that refuses what the rules refuse, at connect time. */
export function guardedLookup(rules: OutboundRules): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const list = addresses as unknown as dns.LookupAddress[];
      const refused = list.find((a) => !addressPermitted(a.address, rules));
      if (refused || list.length === 0) {
        callback(Object.assign(new Error(OUTBOUND_REFUSED), { code: 'EADDRREFUSED' }), '', 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
