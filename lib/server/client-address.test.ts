import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from './client-address';

const headers = (forwardedFor?: string) =>
  new Headers(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {});

describe('the client address', () => {
  it('is the connection’s own address without a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress(headers('10.0.0.1'), { trustProxy: false, peer: '203.0.113.7' })).toBe(
      '203.0.113.7',
    );
    expect(resolveClientAddress(headers(), { trustProxy: false, peer: null })).toBeNull();
  });

  it('is the entry the trusted proxy added (the last one), never one the client wrote before it', () => {
    expect(
      resolveClientAddress(headers('10.0.0.1, 198.51.100.4'), { trustProxy: true, peer: '192.168.0.2' }),
    ).toBe('198.51.100.4');
    expect(resolveClientAddress(headers('198.51.100.4'), { trustProxy: true, peer: '192.168.0.2' })).toBe(
      '198.51.100.4',
    );
    // No header: the proxy did not say, so the connection's address stands.
    expect(resolveClientAddress(headers(), { trustProxy: true, peer: '192.168.0.2' })).toBe('192.168.0.2');
  });
});
