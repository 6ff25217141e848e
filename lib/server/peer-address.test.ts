// The loopback rule reads the socket, not the headers: a request with a forged Host or X-Forwarded-For is
// still known by the address it really came from.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPeerAddress, isLoopbackAddress, trackPeerAddresses } from './peer-address';

let server: http.Server;
let port: number;
beforeAll(async () => {
  trackPeerAddresses();
  server = http.createServer(async (_req, res) => {
    // An await between the request and the read, as a route handler has.
    await new Promise((resolve) => setImmediate(resolve));
    res.end(JSON.stringify({ peer: currentPeerAddress() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the peer address of a request', () => {
  it('is the socket’s address whatever the headers claim', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
    });
    const { peer } = (await response.json()) as { peer: string };
    expect(isLoopbackAddress(peer)).toBe(true);
    expect(peer).not.toBe('203.0.113.9');
  });

  it('is unknown outside a request', () => {
    expect(currentPeerAddress()).toBeNull();
  });

  it('tells loopback from other addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '203.0.113.9', 'localhost', '', null])
      expect(isLoopbackAddress(a)).toBe(false);
  });
});
