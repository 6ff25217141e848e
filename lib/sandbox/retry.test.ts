// #1 on the seeded history: a failed withdrawal is retried for real (it goes back to PENDING and settles
// again); anything else is refused with a reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';

let box: TestSandbox;

async function call(method: string, path: string, apiKey: string, body?: unknown) {
  const res = await box.sandbox.handle(
    new Request(`${TEST_SANDBOX_BASE_URL}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, json: (await res.json()) as { data: unknown; message: string } };
}

beforeAll(async () => {
  box = await createTestSandbox({ seed: 'retry-test' });
}, 120_000);

afterAll(async () => {
  await box?.close();
});

describe('retry (#1) of the seeded history', () => {
  it('retries a failed withdrawal: PENDING at once, then settled by the chain', async () => {
    const wallet = box.credentials.wallets[0]!;
    const failed = await call(
      'GET',
      `/v1/wallets/${wallet.id}/transactions?status=FAILED&type=WITHDRAW&limit=5`,
      wallet.apiKey,
    );
    const rows = failed.json.data as Array<{ id: string; status: string }>;
    expect(rows.length).toBeGreaterThan(0);
    const target = rows[0]!;
    const retried = await call('POST', `/v1/wallets/${wallet.id}/transactions/retry`, wallet.apiKey, {
      id: target.id,
    });
    expect(retried.status).toBe(200);
    expect(retried.json.message).toBe('Transaction retried');
    expect((retried.json.data as { status: string }).status).toBe('PENDING');
    await box.sandbox.settleAll();
    const after = await call('GET', `/v1/wallets/${wallet.id}/transactions/${target.id}`, wallet.apiKey);
    expect(['SUCCESS', 'FAILED']).toContain((after.json.data as { status: string }).status);
    // A settled transaction is not retried again.
    const again = await call('POST', `/v1/wallets/${wallet.id}/transactions/retry`, wallet.apiKey, {
      id: target.id,
    });
    if ((after.json.data as { status: string }).status === 'SUCCESS') {
      expect(again.status).toBe(422);
      expect(again.json.message).toBe('Only failed transactions can be retried');
    } else expect(again.status).toBe(200);
  });

  it('refuses a seeded failed deposit with a reason', async () => {
    const wallet = box.credentials.wallets[0]!;
    const failed = await call(
      'GET',
      `/v1/wallets/${wallet.id}/transactions?status=FAILED&type=DEPOSIT&limit=5`,
      wallet.apiKey,
    );
    const rows = failed.json.data as Array<{ id: string }>;
    for (const row of rows.slice(0, 1)) {
      const retried = await call('POST', `/v1/wallets/${wallet.id}/transactions/retry`, wallet.apiKey, {
        id: row.id,
      });
      expect(retried.status).toBe(422);
      expect(retried.json.message).toMatch(/cannot be retried in the sandbox/);
    }
    const success = await call(
      'GET',
      `/v1/wallets/${wallet.id}/transactions?status=SUCCESS&limit=1`,
      wallet.apiKey,
    );
    const done = (success.json.data as Array<{ id: string }>)[0]!;
    const refused = await call('POST', `/v1/wallets/${wallet.id}/transactions/retry`, wallet.apiKey, {
      id: done.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe('Only failed transactions can be retried');
  });
});
