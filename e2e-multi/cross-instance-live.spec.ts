import { expect, expectAccessible, test } from '../e2e/fixtures';
import { sandboxCall, sandboxWallet, simulateDeposit } from '../e2e/helpers/sandbox';
import { INSTANCE_A, INSTANCE_B, signedInOn } from './instances';

type Recorded = { liveMarker?: string; custodyEvents?: Array<{ transactionId: string; event: string }> };

test('a deposit made on instance A shows up live in a transactions table open on instance B', async ({
  browser,
  playwright,
}) => {
  const wallet = sandboxWallet('Payouts');
  const float = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep);
  expect(float, 'an operating float address in the seed').toBeTruthy();

  const { page, context } = await signedInOn(browser, 'viewer', INSTANCE_B);
  await page.goto(`/wallets/${wallet.id}/transactions`);
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expectAccessible(page);
  // The window keeps a marker only if the page is never reloaded, and records what instance B streams.
  await page.evaluate(() => {
    const w = window as unknown as Recorded;
    w.liveMarker = 'still here';
    w.custodyEvents = [];
    new EventSource('/api/events').addEventListener('custody', (e) => {
      w.custodyEvents!.push(JSON.parse((e as MessageEvent<string>).data));
    });
  });

  // Through instance A's sandbox, as an outside client of A would; its webhooks go to A only.
  const onA = await playwright.request.newContext({ baseURL: INSTANCE_A });
  const amount = `4.${Math.floor(100 + Math.random() * 899)}3`;
  const deposit = await simulateDeposit(onA, wallet, float!.id, amount);

  const row = table.getByRole('row', { name: new RegExp(`^Deposit of ${amount.replace('.', '\\.')} `) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('SUCCESS', { timeout: 30_000 });
  // Instance B streamed the event although only instance A received the webhook.
  await expect
    .poll(() =>
      page.evaluate(
        (id) =>
          ((window as unknown as Recorded).custodyEvents ?? [])
            .filter((e) => e.transactionId === id)
            .map((e) => e.event),
        deposit.id,
      ),
    )
    .toContain('deposit.success');
  const deliveries = await sandboxCall<Array<{ url: string; event: string }>>(
    onA,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions/${deposit.id}/webhooks`,
  );
  expect(deliveries.json.data.length).toBeGreaterThan(0);
  for (const delivery of deliveries.json.data)
    expect(delivery.url).toBe(`${INSTANCE_A}/api/webhooks/custody`);
  expect(await page.evaluate(() => (window as unknown as Recorded).liveMarker)).toBe('still here');
  await expectAccessible(page);
  await onA.dispose();
  await context.close();
});
