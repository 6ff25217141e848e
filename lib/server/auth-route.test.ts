// Auth.js's own routes (the session read above all) answer only inside the network allow-list, whatever the proxy
// did: a stolen session cookie does not read the person's email, role and session id from outside.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ allowed: true, reached: 0 }));
vi.mock('@/lib/server/auth', () => {
  const handler = async () => {
    state.reached += 1;
    return Response.json({ user: { email: 'admin@example.com' } });
  };
  return { handlers: { GET: handler, POST: handler } };
});
vi.mock('@/lib/server/client-address', async (original) => ({
  ...(await original<typeof import('@/lib/server/client-address')>()),
  clientAddressOf: () => '203.0.113.9',
  networkAllowed: (address: string | null) => address === '203.0.113.9' && state.allowed,
}));

const { GET, POST } = await import('@/app/api/auth/[...nextauth]/route');
const { NETWORK_REFUSED } = await import('@/lib/server/client-address');

const request = (method: string) =>
  new Request('http://console.test/api/auth/session', { method }) as unknown as Parameters<typeof GET>[0];

describe("Auth.js's routes", () => {
  beforeEach(() => {
    state.reached = 0;
  });

  it('answer inside the allow-list', async () => {
    state.allowed = true;
    const response = await GET(request('GET'));
    expect(response.status).toBe(200);
    expect(state.reached).toBe(1);
  });

  it('refuse outside it with 403 and the sentence, without reading the session', async () => {
    state.allowed = false;
    for (const [handler, method] of [
      [GET, 'GET'],
      [POST, 'POST'],
    ] as const) {
      const response = await handler(request(method));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ statusCode: 403, message: NETWORK_REFUSED });
    }
    expect(state.reached).toBe(0);
  });
});
