// A server action sent from another site is refused by the proxy with 403 and a sentence, before its body is
// read and before Next's own check would answer it with a server error.
import { NextRequest } from 'next/server';
import { describe, expect, it, vi } from 'vitest';
import { FOREIGN_ORIGIN, isForeignActionOrigin } from './action-origin';

// The proxy's session wrapper, signed in: what is left to decide is the origin.
vi.mock('@/lib/server/auth', () => ({
  auth:
    (handler: (request: unknown, event: unknown) => unknown) =>
    (request: { auth?: unknown }, event: unknown) => {
      request.auth = { user: { id: 'u', role: 'admin', mustChangePassword: false } };
      return handler(request, event);
    },
}));

const { proxy } = await import('@/proxy');

const headers = (values: Record<string, string>) => new Headers(values);

describe('isForeignActionOrigin', () => {
  it.each([
    ['the same host and port', { origin: 'http://console.test:3000', host: 'console.test:3000' }, false],
    ['no Origin (a hand-made request, as Next lets through)', { host: 'console.test:3000' }, false],
    [
      'the forwarded host a reverse proxy names',
      {
        origin: 'https://console.example.com',
        host: '10.0.0.5:3000',
        'x-forwarded-host': 'console.example.com',
      },
      false,
    ],
    [
      'the first of several forwarded hosts',
      { origin: 'https://a.example', host: 'x', 'x-forwarded-host': 'a.example, b.example' },
      false,
    ],
    ['another site', { origin: 'https://evil.example', host: 'console.test:3000' }, true],
    [
      'another port of the same host',
      { origin: 'http://console.test:4000', host: 'console.test:3000' },
      true,
    ],
    [
      'the Host when a forwarded host says otherwise',
      { origin: 'http://console.test:3000', host: 'console.test:3000', 'x-forwarded-host': 'proxy.example' },
      true,
    ],
    ['a sandboxed frame (Origin: null)', { origin: 'null', host: 'console.test:3000' }, true],
    ['an Origin that is not an address', { origin: 'not a url', host: 'console.test:3000' }, true],
    ['no host to compare with', { origin: 'http://console.test:3000' }, true],
  ])('%s', (_, values, foreign) => {
    expect(isForeignActionOrigin(headers(values))).toBe(foreign);
  });
});

describe('the proxy', () => {
  const action = (origin: string, body = '[]') =>
    new NextRequest('http://console.test:3000/wallets', {
      method: 'POST',
      headers: {
        host: 'console.test:3000',
        origin,
        'next-action': '7f00000000000000000000000000000000000000',
        'content-type': 'text/plain;charset=UTF-8',
      },
      body,
    });
  const event = {} as Parameters<typeof proxy>[1];

  it('answers an action from another site with 403 and a sentence, security headers included', async () => {
    const response = await proxy(action('https://evil.example'), event);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(FOREIGN_ORIGIN);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('refuses the foreign origin before the body: a broken body from another site is still a 403', async () => {
    const response = await proxy(action('https://evil.example', '{broken'), event);
    expect(response.status).toBe(403);
  });

  it('passes an action from the console’s own origin on to the page', async () => {
    const response = await proxy(action('http://console.test:3000'), event);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });
});
