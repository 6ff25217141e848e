// Upstream calls figure: how many custody requests each main page and one withdrawal request cost, counted
// under the fetch the console hands its custody clients (the sandbox in-process, the console's own runtime).
// A page is counted through the loaders its server component calls, the same functions, without a session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** One row of the table: calls with nothing kept from before, and within one request flow. */
interface Row {
  what: string;
  calls: number;
}

export async function upstreamCallsBench(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-upstream-'));
  process.env.CONSOLE_DATA_DIR = dataDir;
  // Webhooks of the sandbox go nowhere: no console listens here, and none must receive them.
  process.env.SANDBOX_WEBHOOK_URL = 'http://127.0.0.1:9/hooks';
  const { getRuntime } = await import('@/lib/server/runtime');
  const runtime = await getRuntime();
  try {
    if (!runtime.sandbox || runtime.config.dataDir !== dataDir) {
      throw new Error('the figure needs the console runtime in sandbox mode on a fresh data directory');
    }
    const sandbox = runtime.sandbox;
    const calls: string[] = [];
    const upstream = sandbox.fetch;
    // Replaced before any custody client exists, so every client the console builds counts through it.
    sandbox.fetch = ((input: string, init: RequestInit) => {
      calls.push(`${init.method ?? 'GET'} ${new URL(input).pathname}${new URL(input).search}`);
      return upstream(input, init);
    }) as typeof fetch;

    const { sharedReadsFor } = await import('@/lib/server/upstream-reads');
    const { listWalletConnections, custodyFor } = await import('@/lib/server/wallets');
    const { loadWalletView, loadAddresses } = await import('@/lib/server/wallet-views');
    const { listTransactionPage } = await import('@/lib/server/transactions');
    const { loadWebhookLogPage } = await import('@/lib/server/webhooks');
    const { forgetWithdrawFormContext, withdrawFormContext, getApprovalEngine } = await import(
      '@/lib/server/approvals'
    );
    const { probeCapabilities } = await import('@/lib/server/capabilities');
    const { parseAddressFilters } = await import('@/lib/validation/address-search');
    const { filtersOf, parseTransactionSearch } = await import('@/lib/validation/transactions');
    const { parseWebhookLogQuery } = await import('@/lib/validation/webhooks');
    const { validateWithdrawal } = await import('@/lib/validation/withdrawals');
    const { demoBookAddress } = await import('@/lib/server/demo-address-book');
    const { users } = await import('@/lib/db/schema');
    const { eq } = await import('drizzle-orm');

    const [connection] = await listWalletConnections();
    if (!connection) throw new Error('the sandbox connected no wallet');
    const walletId = connection.id;
    // A connected wallet has its extensions probed at connect time; that is not a page's cost.
    await probeCapabilities(walletId);
    const shared = sharedReadsFor(sandbox.fetch);

    async function count(what: string, run: () => Promise<unknown>, cold = true): Promise<Row> {
      if (cold) {
        shared.forgetWallet(walletId);
        forgetWithdrawFormContext(walletId);
      }
      calls.length = 0;
      await run();
      if (process.env.BENCH_VERBOSE) console.log(what, calls);
      return { what, calls: calls.length };
    }

    const client = await custodyFor(walletId);
    if (!client) throw new Error('no custody client for the wallet');
    const pages: Row[] = [
      await count('overview', () => loadWalletView(walletId)),
      await count('addresses', () => loadAddresses(walletId, parseAddressFilters({}))),
      await count('transactions', () =>
        Promise.all([
          listTransactionPage(client, walletId, filtersOf(parseTransactionSearch({}))),
          client.wallets.get({ walletId }),
        ]),
      ),
      await count('webhooks', () => loadWebhookLogPage(client, walletId, parseWebhookLogQuery({}))),
      await count('withdraw form', () => withdrawFormContext(walletId)),
    ];

    // One withdrawal request as the form's actions run it: form load, review (check + preview), create.
    const db = runtime.database.db as import('@/lib/db/schema').ConsoleDb;
    const [finance] = await db.select().from(users).where(eq(users.email, 'finance@example.com')).limit(1);
    if (!finance) throw new Error('the sandbox seeded no finance user');
    const actor = { id: finance.id, email: finance.email, role: finance.role };
    const engine = await getApprovalEngine();
    const form = await withdrawFormContext(walletId);
    const asset = form?.assets.find((a) => a.symbol === 'USDC') ?? form?.assets[0];
    if (!form || !asset) throw new Error('the withdraw form has no asset');
    const values = {
      walletId,
      kind: 'withdraw' as const,
      source: 'master',
      rows: [
        {
          // A demo address book entry past its cooling-off (the destination policy).
          address: demoBookAddress(runtime.config.env.SANDBOX_SEED, walletId, 'Acme Supplies'),
          amount: '0.01',
          assetId: asset.id,
          reference: '',
          note: '',
          metadata: '',
        },
      ],
    };
    async function checked() {
      const context = await withdrawFormContext(walletId);
      if (!context) throw new Error('wallet not connected');
      const validation = validateWithdrawal(values, {
        assets: context.assets,
        chain: { isEvmCompatible: context.wallet.isEvmCompatible },
      });
      if (!validation.ok) throw new Error(validation.error);
      return validation.payload;
    }
    const review = async () => {
      const preview = await engine.preview(actor, 'withdraw', walletId, await checked());
      if (!preview.ok) throw new Error(preview.error);
    };
    const create = async () => {
      const created = await engine.create(actor, 'withdraw', walletId, await checked());
      if (!created.ok) throw new Error(created.error);
    };
    // Back to back (within the few seconds reads are kept), and each step on its own (a person took longer).
    shared.forgetWallet(walletId);
    forgetWithdrawFormContext(walletId);
    calls.length = 0;
    const steps: Row[] = [];
    for (const [what, run] of [
      ['form load', () => withdrawFormContext(walletId)],
      ['review', review],
      ['create', create],
    ] as const) {
      steps.push(await count(what, run, false));
    }
    const backToBack = steps.reduce((sum, row) => sum + row.calls, 0);
    const coldSteps = [
      await count('form load', () => withdrawFormContext(walletId)),
      await count('review', review),
      await count('create', create),
    ];
    const cold = coldSteps.reduce((sum, row) => sum + row.calls, 0);

    const table: Record<string, number | string> = {};
    for (const row of pages) table[`page: ${row.what}`] = row.calls;
    for (const [i, row] of steps.entries()) {
      table[`withdrawal: ${row.what}`] = `${row.calls} (alone: ${coldSteps[i]?.calls ?? '?'})`;
    }
    table['withdrawal request, back to back'] = backToBack;
    table['withdrawal request, steps apart'] = cold;
    table['target (one withdrawal request)'] = `at most 6: ${backToBack <= 6 ? 'met' : 'NOT met'}`;
    return table;
  } finally {
    await runtime.sandbox?.stop();
    await runtime.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
