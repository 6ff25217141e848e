import 'server-only';
import { decryptSecret } from '@/lib/crypto/aead';
import type { AnyDb } from '@/lib/db/types';
import {
  sandboxAddresses,
  sandboxAssets,
  sandboxBlockchains,
  sandboxMeta,
  sandboxWalletAssets,
  sandboxWallets,
} from './db/schema';
import { KeyRing, mnemonicToRootKey } from './keys';

export type BlockchainRow = typeof sandboxBlockchains.$inferSelect;
export type AssetRow = typeof sandboxAssets.$inferSelect;
export type WalletRow = typeof sandboxWallets.$inferSelect;
export type WalletAssetRow = typeof sandboxWalletAssets.$inferSelect;
export type AddressRow = typeof sandboxAddresses.$inferSelect;

export interface AddressConfigurations {
  aml: { message: string; provider: string; status: string };
  disableAutoSweep: boolean;
  enableGaslessWithdraw: boolean;
  showPrivateKey: boolean;
  isActive: boolean;
}

export interface BusinessRecord {
  id: string;
  name: string;
  sector: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  configurations: Record<string, unknown>;
  user: Record<string, unknown>;
}

export interface SealedSecrets {
  mnemonic: string;
  totpSecret: string;
}

export interface Logger {
  error(details: unknown, message: string): void;
  warn?(details: unknown, message: string): void;
}

/** An expected failure with its HTTP status and the message the client sees. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const invalid = (message: string) => new HttpError(422, message);

/**
 * The slowly-changing records (chains, assets, wallets, addresses), held in memory: every request
 * needs them and only whitelisting changes them at run time.
 */
export class Catalog {
  business!: BusinessRecord;
  blockchains = new Map<string, BlockchainRow>();
  assets = new Map<string, AssetRow>();
  wallets = new Map<string, WalletRow>();
  walletAssets = new Map<string, WalletAssetRow>();
  addresses = new Map<string, AddressRow>();
  walletByKeyHash = new Map<string, WalletRow>();
  apiKeys = new Map<string, string>();
  private assetByChainAddress = new Map<string, AssetRow>();
  private addressByValue = new Map<string, AddressRow>();

  /**
   * Reads the catalog through `db`, one table after another: the seed loads it inside its transaction, one
   * connection that answers one query at a time (node-postgres queues, and deprecates, a query started before
   * the previous one answered).
   */
  async load(db: AnyDb, encryptionKey: Buffer): Promise<void> {
    const chains = await db.select().from(sandboxBlockchains);
    const assets = await db.select().from(sandboxAssets);
    const wallets = await db.select().from(sandboxWallets);
    const walletAssets = await db.select().from(sandboxWalletAssets);
    const addresses = await db.select().from(sandboxAddresses);
    const meta = await db.select().from(sandboxMeta);
    this.blockchains = new Map(chains.map((r) => [r.id, r]));
    this.assets = new Map(assets.map((r) => [r.id, r]));
    this.assetByChainAddress = new Map(
      assets.map((r) => [`${r.blockchainId}:${r.address.toLowerCase()}`, r]),
    );
    this.wallets = new Map(wallets.map((r) => [r.id, r]));
    this.walletByKeyHash = new Map(wallets.map((r) => [r.apiKeyHash, r]));
    this.apiKeys = new Map(
      wallets.map((r) => [r.id, decryptSecret(r.apiKeySealed, encryptionKey, `sandbox-api-key:${r.id}`)]),
    );
    this.walletAssets = new Map(walletAssets.map((r) => [r.id, r]));
    this.setAddresses(addresses);
    const business = meta.find((m) => m.key === 'business');
    if (business) this.business = business.value as BusinessRecord;
  }

  setAddresses(rows: AddressRow[]) {
    this.addresses = new Map(rows.map((r) => [r.id, r]));
    this.addressByValue = new Map(rows.map((r) => [`${r.walletId}:${r.address.toLowerCase()}`, r]));
  }

  putAddress(row: AddressRow) {
    this.addresses.set(row.id, row);
    this.addressByValue.set(`${row.walletId}:${row.address.toLowerCase()}`, row);
  }

  blockchainOf(wallet: WalletRow): BlockchainRow {
    const chain = this.blockchains.get(wallet.blockchainId);
    if (!chain) throw new Error(`Wallet ${wallet.id} has no blockchain`);
    return chain;
  }

  walletAssetsOf(walletId: string): Array<{ entry: WalletAssetRow; asset: AssetRow }> {
    const out: Array<{ entry: WalletAssetRow; asset: AssetRow }> = [];
    for (const entry of this.walletAssets.values()) {
      if (entry.walletId !== walletId) continue;
      const asset = this.assets.get(entry.assetId);
      if (asset) out.push({ entry, asset });
    }
    return out.sort((a, b) => a.asset.symbol.localeCompare(b.asset.symbol));
  }

  nativeAsset(blockchainId: string): AssetRow {
    const asset = this.assetByChainAddress.get(`${blockchainId}:0x0000000000000000000000000000000000000000`);
    if (!asset) throw new Error(`Blockchain ${blockchainId} has no native asset`);
    return asset;
  }

  tokenAt(blockchainId: string, address: string): AssetRow | undefined {
    const asset = this.assetByChainAddress.get(`${blockchainId}:${address.toLowerCase()}`);
    return asset?.standard ? asset : undefined;
  }

  /** The wallet-asset entry id (what the real service hands out) or the asset's own id. */
  resolveWalletAsset(wallet: WalletRow, id: string): AssetRow | undefined {
    const entry = this.walletAssets.get(id);
    if (entry) return entry.walletId === wallet.id ? this.assets.get(entry.assetId) : undefined;
    const asset = this.assets.get(id);
    if (!asset) return undefined;
    for (const e of this.walletAssets.values())
      if (e.walletId === wallet.id && e.assetId === asset.id) return asset;
    return undefined;
  }

  /** Finds an asset by either id anywhere in the business, with the wallet that holds it. */
  resolveAnyAsset(id: string): { asset: AssetRow; wallet: WalletRow } | undefined {
    const entry = this.walletAssets.get(id);
    if (entry) {
      const asset = this.assets.get(entry.assetId);
      const wallet = this.wallets.get(entry.walletId);
      return asset && wallet ? { asset, wallet } : undefined;
    }
    const asset = this.assets.get(id);
    if (!asset) return undefined;
    for (const e of this.walletAssets.values()) {
      const wallet = this.wallets.get(e.walletId);
      if (e.assetId === asset.id && wallet) return { asset, wallet };
    }
    return undefined;
  }

  walletAssetEntry(walletId: string, assetId: string): WalletAssetRow | undefined {
    for (const e of this.walletAssets.values())
      if (e.walletId === walletId && e.assetId === assetId) return e;
    return undefined;
  }

  addressInWallet(walletId: string, address: string): AddressRow | undefined {
    return this.addressByValue.get(`${walletId}:${address.toLowerCase()}`);
  }

  addressesOf(walletId: string): AddressRow[] {
    return [...this.addresses.values()]
      .filter((a) => a.walletId === walletId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  /** Which wallet owns an on-chain address of ours (master or child), if any. */
  ownerOf(blockchainId: string, address: string): { wallet: WalletRow; address?: AddressRow } | undefined {
    const lower = address.toLowerCase();
    for (const wallet of this.wallets.values()) {
      if (wallet.blockchainId !== blockchainId) continue;
      if (wallet.address.toLowerCase() === lower) return { wallet };
      const child = this.addressInWallet(wallet.id, lower);
      if (child) return { wallet, address: child };
    }
    return undefined;
  }
}

export function loadKeyRing(
  secrets: SealedSecrets,
  encryptionKey: Buffer,
): { keys: KeyRing; totpSecret: string } {
  const mnemonic = decryptSecret(secrets.mnemonic, encryptionKey, 'sandbox-mnemonic');
  const totpSecret = decryptSecret(secrets.totpSecret, encryptionKey, 'sandbox-totp');
  // The root key (PBKDF2 and a secp256k1 key) is computed on first use: opening the sandbox needs none.
  return { keys: new KeyRing(() => mnemonicToRootKey(mnemonic)), totpSecret };
}
