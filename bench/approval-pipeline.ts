// Approval pipeline figure: 200 requests approved concurrently against the embedded sandbox; every one must be
// submitted exactly once; prints p50 and p95 of the time from the final approval to SUBMITTED.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, inArray } from 'drizzle-orm';
import { CONSOLE_MIGRATIONS, openDatabase, runMigrations } from '@/lib/db/connection';
import { type ConsoleDb, operationEvents, schema, users } from '@/lib/db/schema';
import { createSandbox } from '@/lib/sandbox';
import { createApprovalEngine } from '@/lib/server/approvals/engine';
import { referenceFor } from '@/lib/server/approvals/hash';
import { trustRecipients } from '@/test/address-book';

const REQUESTS = Number(process.env.BENCH_APPROVALS ?? 200);

/** Budget for the p95 from the final approval to SUBMITTED ("Fast where it counts", item 4). */
const BUDGET_P95_MS = { pglite: 600, postgres: 300 } as const;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

async function pool<T>(items: T[], size: number, run: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        await run(items[i]!, i);
      }
    }),
  );
}

export async function approvalPipelineBench(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-approvals-'));
  // DATABASE_URL: that PostgreSQL database (bench/index.ts gives each run a new one); in-memory PGlite otherwise.
  const handle = await openDatabase({ url: process.env.DATABASE_URL, dataDir: 'memory://', schema });
  await runMigrations(handle, CONSOLE_MIGRATIONS);
  const db = handle.db as ConsoleDb;
  const sandbox = await createSandbox({
    db: handle.db,
    dbKind: handle.kind,
    encryptionKey: Buffer.alloc(32, 9),
    seed: 'bench-approvals',
    blockTimeMs: 1000,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://sandbox.internal/sandbox',
    dataDir,
    fetch: async () => new Response('ok'),
    // The figure is about the console's pipeline, not the sandbox's per-key rate limit.
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  try {
    const creds = await sandbox.credentials();
    const wallet = creds.wallets[0]!;
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    let withdrawCalls = 0;
    const engine = createApprovalEngine({
      db,
      async connectionFor() {
        return {
          baseUrl: 'http://sandbox.internal/sandbox',
          apiKey: wallet.apiKey,
          fetch: async (url: string, init: RequestInit) => {
            if (init.method === 'POST' && url.endsWith('/withdraw')) withdrawCalls++;
            return sandbox.fetch(url, init);
          },
        };
      },
    });
    const [requester, approver] = await db
      .insert(users)
      .values([
        { email: 'bench-requester@example.com', name: 'Requester', role: 'finance', passwordHash: 'x' },
        { email: 'bench-approver@example.com', name: 'Approver', role: 'finance', passwordHash: 'x' },
      ])
      .returning();
    const asActor = (u: typeof requester) => ({ id: u!.id, email: u!.email, role: u!.role });
    // Each request pays an address book entry past its cooling-off (the destination policy).
    await trustRecipients(
      db,
      wallet.id,
      Array.from({ length: REQUESTS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`),
    );
    const ids: string[] = [];
    const createStart = performance.now();
    await pool(
      Array.from({ length: REQUESTS }, (_, i) => i),
      8,
      async (i) => {
        const created = await engine.create(asActor(requester), 'withdraw', wallet.id, {
          source: { kind: 'master' },
          items: [
            {
              assetId: usdc.id,
              symbol: usdc.symbol,
              decimals: usdc.decimals,
              address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
              amount: '0.01',
            },
          ],
        });
        if (!created.ok) throw new Error(created.error);
        ids.push(created.data.id);
      },
    );
    const createMs = performance.now() - createStart;

    const approveStart = performance.now();
    // Every request approved twice at once (a double click), all requests at the same time.
    const results = await Promise.all([...ids, ...ids].map((id) => engine.approve(asActor(approver), id)));
    const approveMs = performance.now() - approveStart;

    const events = await db
      .select()
      .from(operationEvents)
      .where(inArray(operationEvents.requestId, ids))
      .orderBy(asc(operationEvents.id));
    const approvedAt = new Map<string, number>();
    const submittedAt = new Map<string, number>();
    for (const e of events) {
      if (e.kind === 'fully_approved') approvedAt.set(e.requestId, e.at.getTime());
      if (e.kind === 'submitted') submittedAt.set(e.requestId, e.at.getTime());
    }
    const latencies = ids
      .filter((id) => approvedAt.has(id) && submittedAt.has(id))
      .map((id) => submittedAt.get(id)! - approvedAt.get(id)!)
      .sort((a, b) => a - b);
    let upstreamPerReference = 0;
    let duplicates = 0;
    await pool(ids, 8, async (id) => {
      const res = await sandbox.handle(
        new Request(
          `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/transactions?reference=${referenceFor(id, 0)}`,
          { headers: { 'x-api-key': wallet.apiKey } },
        ),
      );
      const n = ((await res.json()) as { data: unknown[] }).data.length;
      upstreamPerReference += n;
      if (n !== 1) duplicates++;
    });
    return {
      requests: REQUESTS,
      approveCalls: results.length,
      submitted: submittedAt.size,
      upstreamWithdrawCalls: withdrawCalls,
      upstreamTransactions: upstreamPerReference,
      requestsNotExactlyOnce: duplicates,
      createSeconds: Number((createMs / 1000).toFixed(2)),
      approveAllSeconds: Number((approveMs / 1000).toFixed(2)),
      finalApprovalToSubmittedP50Ms: percentile(latencies, 50),
      finalApprovalToSubmittedP95Ms: percentile(latencies, 95),
      p95BudgetMs: `${BUDGET_P95_MS[handle.kind]}: ${percentile(latencies, 95) < BUDGET_P95_MS[handle.kind] ? 'met' : 'not met'}`,
      exactlyOnce: withdrawCalls === REQUESTS && duplicates === 0 ? 'yes' : 'NO',
    };
  } finally {
    await sandbox.stop();
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
