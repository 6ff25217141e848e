import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';
import { addressInNetworks, parseNetworkList } from './networks';

function ranges(value: string) {
  const list = parseNetworkList(value);
  if (!list.ok) throw new Error(`not a list: ${list.invalid.join(', ')}`);
  return list.ranges;
}

describe('network allow-list', () => {
  const office = ranges('10.20.0.0/16, 192.168.1.7, 2001:db8::/32');

  it.each([
    ['10.20.0.1', true],
    ['10.20.255.254', true],
    ['10.21.0.1', false],
    ['192.168.1.7', true],
    ['192.168.1.8', false],
    ['2001:db8::1', true],
    ['2001:db8:ffff::1', true],
    ['2001:db9::1', false],
    // IPv4 clients on a dual-stack socket are reported as IPv4-mapped IPv6 addresses.
    ['::ffff:10.20.3.4', true],
    ['::ffff:10.99.3.4', false],
    ['fe80::1%eth0', false],
    ['not-an-address', false],
    ['', false],
  ])('%s is allowed: %s', (address, allowed) => {
    expect(addressInNetworks(address, office)).toBe(allowed);
  });

  it('never matches an unknown address', () => {
    expect(addressInNetworks(null, office)).toBe(false);
    expect(addressInNetworks(undefined, ranges('0.0.0.0/0'))).toBe(false);
  });

  it('lets everything in with 0.0.0.0/0 and ::/0', () => {
    const all = ranges('0.0.0.0/0,::/0');
    expect(addressInNetworks('203.0.113.9', all)).toBe(true);
    expect(addressInNetworks('2a00::1', all)).toBe(true);
  });

  it('covers IPv4 addresses with an IPv4-mapped IPv6 range', () => {
    expect(addressInNetworks('10.0.0.1', ranges('::ffff:10.0.0.0/104'))).toBe(true);
    expect(addressInNetworks('11.0.0.1', ranges('::ffff:10.0.0.0/104'))).toBe(false);
  });

  it('names every entry that is not a network', () => {
    expect(parseNetworkList('10.0.0.0/8, 10.0.0.0/33, office, 2001:db8::/129')).toEqual({
      ok: false,
      invalid: ['10.0.0.0/33', 'office', '2001:db8::/129'],
    });
  });

  it('is checked at start-up with a sentence naming the variable and the bad entries', () => {
    expect(() => parseEnv({ CONSOLE_ALLOWED_CIDRS: '10.0.0.0/8,office' })).toThrow(
      /CONSOLE_ALLOWED_CIDRS must be a comma-separated list of networks.*not a network: office/,
    );
    expect(() => parseEnv({ CONSOLE_ALLOWED_CIDRS: ' , ' })).toThrow(
      /CONSOLE_ALLOWED_CIDRS lists no network/,
    );
    expect(parseEnv({ CONSOLE_ALLOWED_CIDRS: '10.0.0.0/8' }).CONSOLE_ALLOWED_CIDRS).toBe('10.0.0.0/8');
    expect(parseEnv({}).CONSOLE_ALLOWED_CIDRS).toBeUndefined();
    expect(() => parseEnv({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be 1 or 0/);
  });
});
