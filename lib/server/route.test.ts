// Route handlers' JSON bodies and query strings: each way a body can be wrong gets its status and a sentence.
import { describe, expect, it, vi } from 'vitest';

const audited = vi.hoisted(() => [] as Array<{ action: string; outcome: string; details: unknown }>);
vi.mock('./guard', () => ({
  authorize: async () => ({
    ok: true,
    actor: { id: 'u', email: 'a@example.com', role: 'admin', requestId: 'r' },
  }),
  audit: async (_actor: unknown, action: string, outcome: string, details: unknown) => {
    audited.push({ action, outcome, details });
  },
}));

const { readJsonBody, withPermission } = await import('./route');

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://console.test/api/x', { method: 'POST', body, headers });

async function refusal(result: Awaited<ReturnType<typeof readJsonBody>>) {
  if (result.ok) throw new Error('accepted');
  return { status: result.response.status, body: await result.response.json() };
}

describe('readJsonBody', () => {
  it('reads a JSON body', async () => {
    expect(await readJsonBody(post('{"email":"a@example.com"}'))).toEqual({
      ok: true,
      body: { email: 'a@example.com' },
    });
  });

  it.each([
    ['broken JSON', '{"email":', 400, 'The request body is not valid JSON.'],
    ['5000-deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`, 400, 'nested more than'],
    ['a NUL in a string', '{"name":"a\\u0000b"}', 400, 'remove control characters'],
    ['a NUL in a key', '{"a\\u0000":1}', 400, 'remove control characters'],
    ['over the limit', `"${'x'.repeat(70_000)}"`, 413, 'larger than'],
  ])('refuses %s', async (_name, body, status, message) => {
    const answer = await refusal(await readJsonBody(post(body)));
    expect(answer.status).toBe(status);
    expect(answer.body.message).toContain(message);
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    const answer = await refusal(await readJsonBody(post('{}', { 'content-length': '10000000' })));
    expect(answer.status).toBe(413);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const request = new Request('http://console.test/api/x', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect((await refusal(await readJsonBody(request))).status).toBe(400);
  });
});

describe('query strings with control characters', () => {
  it('answers 422 with the parameter named, before the handler runs', async () => {
    const handler = vi.fn(async () => Response.json({ ok: true }));
    const GET = withPermission('read', handler);
    const response = await GET(new Request('http://console.test/api/search?q=ab%00c'), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ statusCode: 422, message: 'q: Remove control characters' });
    expect(handler).not.toHaveBeenCalled();
    // Audited as refused input: the parameter's name, never its value.
    expect(audited.at(-1)).toEqual({
      action: 'route read',
      outcome: 'invalid',
      details: { target: 'GET /api/search', input: { fields: ['q'] } },
    });
    const fine = await GET(new Request('http://console.test/api/search?q=abc'), {
      params: Promise.resolve({}),
    });
    expect(fine.status).toBe(200);
  });
});

describe('route parameters', () => {
  const handler = vi.fn(async ({ params }: { params: Record<string, string | string[]> }) =>
    Response.json({ walletId: params.walletId }),
  );
  const GET = withPermission('read', handler);
  const call = (params: Record<string, string | string[]>) =>
    GET(new Request('http://console.test/api/wallets/x'), { params: Promise.resolve(params) });

  it.each([
    ['a NUL', 'wal\u0000let'],
    ['an escape character', 'wal\u001blet'],
    ['a text-direction override', 'wal\u202elet'],
    ['a slash', '../etc'],
    ['a space', 'wallet 1'],
    ['nothing', ''],
    ['101 characters', 'w'.repeat(101)],
  ])('answer 400 with a sentence, before the handler runs, for a walletId with %s', async (_, walletId) => {
    handler.mockClear();
    const response = await call({ walletId });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      message: 'The walletId in the address is not a valid id (letters, digits, dashes and underscores).',
    });
    expect(handler).not.toHaveBeenCalled();
    expect(audited.at(-1)).toMatchObject({
      outcome: 'invalid',
      details: { input: { fields: ['walletId'] } },
    });
  });

  it('names the segment that is wrong, a catch-all included', async () => {
    const response = await call({ walletId: 'w-1', addressId: ['a', 'b'] });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('addressId');
  });

  it('hands a well-formed id to the handler', async () => {
    handler.mockClear();
    const response = await call({ walletId: '0b5a3c1e-9d2f-4e7a-8c61-2f0e5d4b3a21', addressId: 'addr_1' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ walletId: '0b5a3c1e-9d2f-4e7a-8c61-2f0e5d4b3a21' });
    expect(handler).toHaveBeenCalledOnce();
  });

  it('refuses a text-direction override in the query string by name, like a control character', async () => {
    const response = await GET(new Request('http://console.test/api/search?q=a%E2%80%AEb'), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).message).toMatch(/^q: Remove text-direction characters/);
  });
});
