import { expect, expectAccessible, test } from '../e2e/fixtures';
import { approveOnPage, nextActionRequest, replayAction } from '../e2e/helpers/actions';
import { employee } from '../e2e/helpers/address-book';
import { type SandboxTransaction, sandboxCall } from '../e2e/helpers/sandbox';
import { treasuryWallet } from '../e2e/helpers/withdraw-approval';
import {
  grantDecision,
  INSTANCE_A,
  INSTANCE_B,
  newestSessionOf,
  queryDatabase,
  signedInOn,
} from './instances';

const REQUESTS = 50;

/** The request id in a create action's answer (`{ ok: true, data: { id } }` in the RSC stream). */
function createdId(answer: string): string {
  const match = /"ok":true,"data":\{"id":"([0-9a-f-]{36})"\}/.exec(answer);
  if (!match) throw new Error(`request not created: ${answer.slice(0, 500)}`);
  return match[1]!;
}

/** Runs `work` over `items`, `limit` at a time. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T, i: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}

test('withdrawals approved at the same time through both instances are each sent upstream once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const wallet = treasuryWallet();
  const run = Date.now().toString(36);
  const reference = (i: number) => `multi-${run}-${i}`;

  // The first request through the form on instance A; its create call is then replayed for the others.
  const finance = await signedInOn(browser, 'finance', INSTANCE_A);
  const form = finance.page;
  await form.goto(`/wallets/${wallet.id}/withdraw`);
  const address = form.getByLabel('Recipient 1 address');
  // Money goes only to address book entries past their cooling-off: the demo payroll's, one per request.
  const typed = employee(wallet, 1).address;
  await expect(async () => {
    await address.fill(typed);
    await address.blur();
    expect(await address.inputValue()).not.toBe(typed);
  }).toPass();
  await form.getByLabel('Recipient 1 amount').fill('0.01');
  await form.getByLabel('Recipient 1 reference (optional)').fill(reference(0));
  await form.getByRole('button', { name: 'Review request' }).click();
  await expect(form.getByRole('heading', { name: 'Review' })).toBeVisible();
  const creating = nextActionRequest(form);
  await form.getByRole('button', { name: 'Create request' }).click();
  const createRequest = await creating;
  await expect(form).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const ids = [form.url().split('/').pop()!];
  const [values] = JSON.parse(createRequest.postData() ?? '[]') as [
    { rows: Array<{ address: string; reference: string }> },
  ];
  expect(values.rows[0]?.reference).toBe(reference(0));

  // The rest by the same action, alternately on each instance, a few at a time as people would.
  const created = await inBatches(
    Array.from({ length: REQUESTS - 1 }, (_, k) => k + 1),
    6,
    async (i) => {
      const target = i % 2 ? INSTANCE_B : INSTANCE_A;
      const rows = [
        { ...values.rows[0]!, address: employee(wallet, i + 1).address, reference: reference(i) },
      ];
      const answer = await replayAction(
        finance.context.request,
        createRequest,
        `${target}/wallets/${wallet.id}/withdraw`,
        [{ ...values, rows }],
      );
      return createdId(answer);
    },
  );
  ids.push(...created);
  expect(new Set(ids).size).toBe(REQUESTS);

  // finance2 approves the first on instance B through the page; that call is replayed for the others.
  const finance2 = await signedInOn(browser, 'finance2', INSTANCE_B);
  await finance2.page.goto(`/approvals/${ids[0]}`);
  await expectAccessible(finance2.page);
  const approving = nextActionRequest(finance2.page);
  await approveOnPage(finance2.page);
  const approveRequest = await approving;

  // Two approvers per request at the same moment, one on each instance (one approval is enough by policy):
  // both may try to move the request to SUBMITTING, and only one may send it. Half the calls go to each.
  const finance2Session = await newestSessionOf('finance2');
  const admin = await signedInOn(browser, 'admin', INSTANCE_A);
  const adminSession = await newestSessionOf('admin');
  const approveAs = (who: typeof admin, instance: string, id: string) =>
    replayAction(who.context.request, approveRequest, `${instance}/approvals/${id}`, [{ requestId: id }]);
  // Each decision asks for its own second-factor check first: nothing is decided without one. Each approver's
  // check is then granted for that one decision, as a right code would.
  await inBatches(ids.slice(1), 6, async (id) => {
    for (const [who, session] of [
      [finance2, finance2Session],
      [admin, adminSession],
    ] as const) {
      const asked = await approveAs(who, INSTANCE_A, id);
      const hash = /"stepUp":\{"payloadHash":"([0-9a-f]{64})","each":true\}/.exec(asked)?.[1];
      expect(hash, `the check asked for before approving ${id}: ${asked.slice(0, 300)}`).toBeDefined();
      await grantDecision(session, hash!);
    }
  });
  const answers = await Promise.all(
    ids.slice(1).flatMap((id, k) => {
      const [first, second] = k % 2 ? [INSTANCE_A, INSTANCE_B] : [INSTANCE_B, INSTANCE_A];
      return [approveAs(finance2, first, id), approveAs(admin, second, id)];
    }),
  );
  // Every request got at least one accepted approval; none of the calls failed on the server.
  for (let k = 0; k < REQUESTS - 1; k++) {
    const pair = answers.slice(2 * k, 2 * k + 2);
    expect(
      pair.some((a) => a.includes('"ok":true')),
      `approvals of ${ids[k + 1]}: ${pair.join(' | ').slice(0, 400)}`,
    ).toBe(true);
  }

  // Each request settles: SUBMITTED then SUCCESS, followed from webhooks that only instance A receives.
  await expect
    .poll(
      async () => {
        const rows = await queryDatabase<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM operation_requests WHERE id = ANY($1) GROUP BY status',
          [ids],
        );
        return Object.fromEntries(rows.map((r) => [r.status, r.n]));
      },
      { timeout: 90_000 },
    )
    .toEqual({ SUCCESS: REQUESTS });

  // Submitted once each: one SUBMITTING and one SUBMITTED step per request...
  const steps = await queryDatabase<{ request_id: string; kind: string; n: number }>(
    `SELECT request_id, kind, count(*)::int AS n FROM operation_events
      WHERE request_id = ANY($1) AND kind IN ('submitting', 'submitted') GROUP BY request_id, kind`,
    [ids],
  );
  expect(steps).toHaveLength(2 * REQUESTS);
  expect(steps.filter((s) => s.n !== 1)).toEqual([]);

  // ...and exactly one withdrawal upstream per reference, as the custody service itself lists them.
  const upstream = await inBatches(ids, 8, async (_, i) => {
    const res = await sandboxCall<SandboxTransaction[]>(
      i % 2 ? admin.context.request : finance.context.request,
      wallet,
      'GET',
      `/v1/wallets/${wallet.id}/transactions?reference=${reference(i)}`,
    );
    expect(res.status).toBe(200);
    return res.json.data.map((t) => `${t.type} ${t.status}`);
  });
  expect(upstream).toEqual(ids.map(() => ['WITHDRAW SUCCESS']));

  // Both instances show the same outcome to a person.
  await finance2.page.goto(`/approvals/${ids[REQUESTS - 1]}`);
  await expect(finance2.page.getByText('Request status: Success')).toBeVisible();
  await form.goto(`/approvals/${ids[REQUESTS - 1]}`);
  await expect(form.getByText('Request status: Success')).toBeVisible();

  await Promise.all([finance.context.close(), finance2.context.close(), admin.context.close()]);
});
