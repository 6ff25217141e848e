import 'server-only';
// The console's approval engine over the process runtime, and its background loop (one per process).
import { decryptSecret, encryptSecret } from '@/lib/crypto/aead';
import type { TransportOptions } from '@/lib/custody';
import { isMissingEndpoint } from '@/lib/custody';
import { alertSinkFor } from '../alerts';
import { capabilitiesOf, markCapabilityMissing, probeCapabilities } from '../capabilities';
import { invitationProblem, sendInvitation } from '../invitations';
import { logger } from '../logger';
import { currentServices as getRuntime, type ConsoleServices as Runtime } from '../services';
import { deleteWalletConnection, insertWalletConnection, replaceWalletKey } from '../wallet-connections';
import { openApiKey } from '../wallets';
import { type ApprovalEngine, createApprovalEngine } from './engine';
import type { ConfigurationServices } from './operations/types';

export type { ApprovalEngine } from './engine';

const ENGINE = Symbol.for('custody-console.approval-engine');
const LOOP = Symbol.for('custody-console.approval-loop');
type Holder = { [ENGINE]?: ApprovalEngine; [LOOP]?: ReturnType<typeof setInterval> };

/** What configuration changes touch besides the console's tables: sealing, the wallet registry, invitations. */
function configurationServices(runtime: Runtime): ConfigurationServices {
  const key = () => runtime.config.encryptionKey;
  // Which extensions the service answers decides how the wallet's pages read; never fails the change.
  const probe = (walletId: string) => probeCapabilities(walletId, runtime).catch(() => undefined);
  return {
    seal: (plaintext, binding) => encryptSecret(plaintext, key(), binding),
    open: (sealed, binding) => decryptSecret(sealed, key(), binding),
    async connectWallet(wallet, apiKeySealed, createdBy) {
      const apiKey = openApiKey(runtime, wallet.id, apiKeySealed);
      const row = await insertWalletConnection(
        runtime,
        { ...wallet, blockchain: { slug: wallet.blockchain } },
        apiKey,
        createdBy,
      );
      if (row) await probe(wallet.id);
      return Boolean(row);
    },
    async rotateWalletKey(walletId, apiKeySealed) {
      const row = await replaceWalletKey(runtime, walletId, openApiKey(runtime, walletId, apiKeySealed));
      // A new key may reach a different service deployment: probe its extensions again.
      if (row) await probe(walletId);
      return Boolean(row);
    },
    removeWallet: async (walletId) => Boolean(await deleteWalletConnection(runtime, walletId)),
    sendInvitation: (input) => sendInvitation(runtime.database.db, runtime.config, input),
    invitationProblem: () => invitationProblem(runtime.config),
  };
}

function engineFor(runtime: Runtime): ApprovalEngine {
  const holder = globalThis as Holder;
  holder[ENGINE] ??= createApprovalEngine({
    db: runtime.database.db,
    unknownOutcomeWindowMs: runtime.config.env.UNKNOWN_OUTCOME_WINDOW_MS,
    // Lookups skip what the wallet's service is known to lack, and record what turns out to be missing.
    capabilities: {
      async missing(walletId) {
        const caps = await capabilitiesOf(walletId);
        return new Set((['transaction', 'walletTransactions'] as const).filter((name) => !caps[name]));
      },
      markMissing: (walletId, name) => markCapabilityMissing(walletId, name),
      isMissingEndpoint,
    },
    async connectionFor(walletId): Promise<TransportOptions | null> {
      return runtime.custody.connectionFor(walletId);
    },
    configuration: configurationServices(runtime),
    alerts: alertSinkFor(runtime),
  });
  return holder[ENGINE];
}

/**
 * Seals a secret a request's payload carries until it is sent (a private key given with a whitelisting), with
 * the key the engine opens it with at submission (`SubmitContext.openSealed`), bound to `binding`.
 */
export async function sealRequestSecret(plaintext: string, binding: string): Promise<string> {
  return encryptSecret(plaintext, (await getRuntime()).config.encryptionKey, binding);
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
  let expiring = false;
  holder[LOOP] = setInterval(() => {
    // Expiry never waits behind a round that is waiting on a slow custody service.
    if (!expiring) {
      expiring = true;
      engine
        .expireDue()
        .catch((error) => log.warn({ err: error }, 'approvals expiry round failed'))
        .finally(() => {
          expiring = false;
        });
    }
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
  /**
   * `service`: the child addresses are the service's own list. `known`: the service cannot list addresses,
   * so they are the ones the console has seen; the form then also takes an address id typed by hand.
   */
  addressSource: 'service' | 'known';
  /**
   * `available`: balances are the service's. `unsupported`: the service has no balances endpoint.
   * `failed`: it has one, but the read failed. Either way an unknown balance never blocks a request.
   */
  balances: 'available' | 'unsupported' | 'failed';
}

/**
 * What the withdrawal form and its actions need to validate input on the server: the wallet's chain, its
 * active assets and its child addresses. Read from the custody service, never from the browser. Needs only
 * the spec's #4 (and #5 for remembered addresses); the address list and balances come from extensions when
 * the service has them.
 */
export function withdrawFormContext(walletId: string): Promise<WithdrawFormContext | null> {
  // The form, its review and its create step each check input against this: one read serves all three.
  const kept = formContexts.get(walletId);
  if (kept && Date.now() - kept.at < FORM_CONTEXT_TTL_MS) return kept.value;
  const value = loadWithdrawFormContext(walletId);
  formContexts.set(walletId, { at: Date.now(), value });
  value.then(
    (context) => {
      if (!context) formContexts.delete(walletId);
    },
    () => formContexts.delete(walletId),
  );
  return value;
}

/** Drops what is kept of a wallet's form context (its service changed, e.g. an extension went away). */
export function forgetWithdrawFormContext(walletId: string): void {
  formContexts.delete(walletId);
}

/** How long a wallet's form context (chain, assets, sources, balances for display) is reused. */
const FORM_CONTEXT_TTL_MS = 15_000;
const formContexts = new Map<string, { at: number; value: Promise<WithdrawFormContext | null> }>();

async function loadWithdrawFormContext(walletId: string): Promise<WithdrawFormContext | null> {
  const runtime = await getRuntime();
  const connection = await runtime.custody.connectionFor(walletId);
  if (!connection) return null;
  const { createCustodyClient } = await import('@/lib/custody');
  const { fetchBalances } = await import('./balances');
  const { capabilitiesOf, viaExtension } = await import('../capabilities');
  const { addressOption, childAddressesFor } = await import('../wallet-addresses');
  const client = createCustodyClient(connection);
  const capabilities = await capabilitiesOf(walletId);
  const [wallet, children, balances] = await Promise.all([
    client.wallets.get({ walletId }).then((r) => r.data),
    childAddressesFor(client, walletId, capabilities),
    viaExtension<import('./types').SourceBalance[] | 'unsupported'>(
      walletId,
      'balances',
      () => fetchBalances(connection, walletId),
      async () => 'unsupported' as const,
      capabilities,
    ).catch(() => 'failed' as const),
  ]);
  const held = typeof balances === 'string' ? [] : balances;
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
        const balance = held.find((b) => b.assetId === a.id);
        return {
          id: a.id,
          symbol: a.asset.symbol,
          decimals: a.asset.decimals,
          balance: balance?.balance ?? null,
          priceUsd: balance?.priceUsd ?? null,
        };
      }),
    sources: [
      { id: 'master', label: `Master wallet (${wallet.name})`, address: wallet.address },
      ...children.addresses.map(addressOption),
    ],
    addressSource: children.source,
    balances: typeof balances === 'string' ? balances : 'available',
  };
}

/**
 * Balances of a child address for the form's asset picker; null when the service cannot report balances
 * (no balances endpoint): unknown, which is not zero.
 */
export async function sourceBalances(walletId: string, addressId: string) {
  const runtime = await getRuntime();
  const connection = await runtime.custody.connectionFor(walletId);
  if (!connection) return [];
  const { fetchBalances } = await import('./balances');
  const { viaExtension } = await import('../capabilities');
  return viaExtension(
    walletId,
    'balances',
    () => fetchBalances(connection, walletId, addressId),
    async () => null,
  );
}
