// The optional network allow-list (CONSOLE_ALLOWED_CIDRS): parsing the list and matching a client's address.
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The sentence every refused address is given, on a page or in JSON. */
export const NETWORK_REFUSED = 'This console accepts connections from listed networks only.';

export type NetworkList = { ok: true; ranges: Range[] } | { ok: false; invalid: string[] };

/**
 * Parses a comma-separated list of IPv4/IPv6 CIDRs ("10.0.0.0/8, 2001:db8::/32"). A bare address means that one
 * address (/32 or /128). Every entry that is not a network is named in `invalid`.
 */
export function parseNetworkList(value: string): NetworkList {
  const ranges: Range[] = [];
  const invalid: string[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    try {
      if (entry.includes('/')) {
        ranges.push(ipaddr.parseCIDR(entry));
      } else {
        const address = ipaddr.parse(entry);
        ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      invalid.push(entry);
    }
  }
  if (invalid.length) return { ok: false, invalid };
  return { ok: true, ranges };
}

/**
 * Whether an address falls inside one of the ranges. An IPv4 address written as IPv6 (::ffff:10.1.2.3, as Node
 * reports IPv4 clients on a dual-stack socket) matches IPv4 ranges. A missing or unreadable address never matches.
 */
export function addressInNetworks(address: string | null | undefined, ranges: readonly Range[]): boolean {
  if (!address) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // `process` turns an IPv4-mapped IPv6 address into the IPv4 address; a zone id (%eth0) is dropped.
    parsed = ipaddr.process(address.trim().replace(/%.*$/, ''));
  } catch {
    return false;
  }
  for (const [network, bits] of ranges) {
    if (network.kind() === parsed.kind()) {
      if (parsed.match(network, bits)) return true;
    } else if (network.kind() === 'ipv6' && parsed.kind() === 'ipv4') {
      // An IPv6 range written for mapped addresses (::ffff:0:0/96) also covers the IPv4 address.
      if ((parsed as ipaddr.IPv4).toIPv4MappedAddress().match(network, bits)) return true;
    }
  }
  return false;
}
