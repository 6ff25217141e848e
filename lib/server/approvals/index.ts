import 'server-only';
// The console's approval engine over the process runtime, and its background loop (one per process).
import type { TransportOptions } from '@/lib/custody';
import type { ConsoleDb } from '@/lib/db/schema';
import { logger } from '../logger';
import { getRuntime, type Runtime } from '../runtime';
import { custodyTransport, findWalletConnection, openApiKey } from '../wallets';
import { type ApprovalEngine, createApprovalEngine } from './engine';

export { type ApprovalEngine, type EngineActor, SYSTEM_ACTOR } from './engine';

const ENGINE = Symbol.for('custody-console.approval-engine');
const LOOP = Symbol.for('custody-console.approval-loop');
type Holder = { [ENGINE]?: ApprovalEngine; [LOOP]?: ReturnType<typeof setInterval> };

function engineFor(runtime: Runtime): ApprovalEngine {
  const holder = globalThis as Holder;
  holder[ENGINE] ??= createApprovalEngine({
    db: runtime.database.db as ConsoleDb,
    async connectionFor(walletId): Promise<TransportOptions | null> {
      const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
      if (!row) return null;
      return { ...custodyTransport(runtime), apiKey: openApiKey(runtime, row.id, row.apiKeySealed) };
    },
  });
  return holder[ENGINE];
}

export async function getApprovalEngine(): Promise<ApprovalEngine> {
  return engineFor(await getRuntime());
}

/** How often the loop expires, submits after a thaw, reconciles and follows (webhooks usually come first). */
const LOOP_MS = 2_000;

/**
 * Starts the background loop and the webhook subscription once per process. Polling stays on as the
 * fallback: a webhook can be lost, the event bus can miss events while reconnecting.
 */
export function startApprovalsLoop(runtime: Runtime): void {
  const holder = globalThis as Holder;
  if (holder[LOOP]) return;
  const engine = engineFor(runtime);
  const log = logger.child({ component: 'approvals-loop' });
  let running = false;
  holder[LOOP] = setInterval(() => {
    if (running) return;
    running = true;
    engine
      .tick()
      .catch((error) => log.warn({ err: error }, 'approvals loop round failed'))
      .finally(() => {
        running = false;
      });
  }, LOOP_MS);
  holder[LOOP].unref?.();
  import('../events')
    .then(({ onCustodyEvent }) =>
      onCustodyEvent((event) =>
        engine
          .onTransactionEvent(event)
          .catch((error) => log.warn({ err: error }, 'could not follow a custody event')),
      ),
    )
    .catch((error) => log.warn({ err: error }, 'custody events unavailable; following by polling only'));
}

export interface WithdrawFormContext {
  wallet: { id: string; name: string; network: string; blockchain: string; isEvmCompatible: boolean };
  /** The wallet's active assets with the master wallet's balance and a USD price where one is known. */
  assets: Array<{
    id: string;
    symbol: string;
    decimals: number;
    balance: string | null;
    priceUsd: string | null;
  }>;
  sources: Array<{ id: string; label: string; address: string }>;
}

/**
 * What the withdrawal form and its actions need to validate input on the server: the wallet's chain, its
 * active assets and its child addresses. Read from the custody service, never from the browser.
 */
export async function withdrawFormContext(walletId: string): Promise<WithdrawFormContext | null> {
  const runtime = await getRuntime();
  const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
  if (!row) return null;
  const connection = { ...custodyTransport(runtime), apiKey: openApiKey(runtime, row.id, row.apiKeySealed) };
  const { createCustodyClient } = await import('@/lib/custody');
  const { fetchBalances } = await import('./balances');
  const client = createCustodyClient(connection);
  const [wallet, addresses, balances] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    client.wallets.listAddresses({ walletId, type: 'INTERNAL', limit: 100 }).then((r) => r.data),
    fetchBalances(connection, walletId).catch(() => []),
  ]);
  return {
    wallet: {
      id: wallet.id,
      name: wallet.name,
      network: wallet.network,
      blockchain: wallet.blockchain.name,
      isEvmCompatible: wallet.blockchain.isEvmCompatible !== false,
    },
    assets: (wallet.assets ?? [])
      .filter((a) => a.isActive && a.asset.isActive !== false)
      .map((a) => {
        const held = balances.find((b) => b.assetId === a.id);
        return {
          id: a.id,
          symbol: a.asset.symbol,
          decimals: a.asset.decimals,
          balance: held?.balance ?? null,
          priceUsd: held?.priceUsd ?? null,
        };
      }),
    sources: [
      { id: 'master', label: `Master wallet (${wallet.name})`, address: wallet.address },
      ...addresses
        .filter((a) => a.isActive !== false)
        .map((a) => ({ id: a.id, label: a.name ?? a.address, address: a.address })),
    ],
  };
}

/** Balances of a child address for the form's asset picker. */
export async function sourceBalances(walletId: string, addressId: string) {
  const runtime = await getRuntime();
  const row = await findWalletConnection(walletId, runtime.database.db as ConsoleDb);
  if (!row) return [];
  const { fetchBalances } = await import('./balances');
  return fetchBalances(
    { ...custodyTransport(runtime), apiKey: openApiKey(runtime, row.id, row.apiKeySealed) },
    walletId,
    addressId,
  );
}
