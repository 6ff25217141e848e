import 'server-only';
// Addresses: #5 one address, #6 whitelisting an external address; extensions: unwhitelisting (Blockradar's
// documented path, plus the old one as an alias), updating an address, the wallet's address list and new
// deposit (child) addresses, derived from the wallet's HD account.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { isHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { encryptSecret } from '@/lib/crypto/aead';
import {
  createAddressInput,
  schemas,
  updateAddressInput,
  whitelistAddressInput,
} from '@/lib/custody/schemas';
import { type AddressConfigurations, type AddressRow, invalid, notFound, type WalletRow } from '../context';
import type { SandboxCore } from '../core';
import { sandboxAddresses } from '../db/schema';
import * as req from '../requests';
import { addressApi } from '../serialize';
import { endpoint } from './endpoint';
import { orderOf, pagedList, slicePage } from './paging';
import { AML_CLEAR, addressOf, checkAddress } from './shared';

export const addressEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId',
    summary: '#5 Get an address',
    response: { data: schemas.address },
    query: ['showPrivateKey'],
    async handle({ core }, { wallet, params, query }) {
      const row = addressOf(core, wallet, params.addressId);
      const config = row.configurations as AddressConfigurations;
      // The private key is only revealed for an address configured to allow it.
      const reveal = query.get('showPrivateKey') === 'true' && config.showPrivateKey && row.derivationPath;
      const privateKey = reveal && row.derivationPath ? core.keys.privateKey(row.derivationPath) : undefined;
      return { data: addressApi(core.catalog, row, privateKey), message: 'Address fetched successfully' };
    },
  }),
  endpoint({
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId/addresses/:addressId',
    summary:
      "Extension: rename an address, replace its metadata or change its sweep and gasless settings (Blockradar's Update Address)",
    body: req.addressUpdateBody,
    documentedBody: updateAddressInput,
    response: { data: schemas.address },
    async handle({ core }, { wallet, params, body }) {
      const row = addressOf(core, wallet, params.addressId);
      // A removed whitelisted address is only kept for its history (see unwhitelist).
      if (row.type === 'EXTERNAL' && !row.isActive) throw notFound('Address');
      if (Object.values(body).every((v) => v === undefined))
        throw invalid('Nothing to update: send name, metadata, disableAutoSweep or enableGaslessWithdraw');
      const config = row.configurations as AddressConfigurations;
      const configurations: AddressConfigurations = {
        ...config,
        ...(body.disableAutoSweep === undefined ? {} : { disableAutoSweep: body.disableAutoSweep }),
        ...(body.enableGaslessWithdraw === undefined
          ? {}
          : { enableGaslessWithdraw: body.enableGaslessWithdraw }),
      };
      const [updated] = await core.db
        .update(sandboxAddresses)
        .set({
          ...(body.name === undefined ? {} : { name: body.name?.trim() || null }),
          ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
          configurations,
          updatedAt: core.stamp(),
        })
        .where(eq(sandboxAddresses.id, row.id))
        .returning();
      if (!updated) throw new Error('update returned nothing');
      // Sweeps and gasless withdrawals read the catalog's copy, so the new settings apply from the next one.
      core.catalog.putAddress(updated);
      core.options.onCatalogChanged();
      return { data: addressApi(core.catalog, updated), message: 'Address updated successfully' };
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/whitelist',
    summary: '#6 Whitelist an external address',
    body: req.whitelistBody,
    documentedBody: whitelistAddressInput,
    response: { data: schemas.address },
    async handle({ core }, { wallet, body }) {
      const { catalog } = core;
      const address = checkAddress(body.address);
      if (address.toLowerCase() === wallet.address.toLowerCase())
        throw invalid('The master wallet cannot be whitelisted');
      const existing = catalog.addressInWallet(wallet.id, address);
      if (existing) {
        if (existing.type === 'INTERNAL')
          throw invalid('The address is already an internal address of this wallet');
        // Whitelisting a removed address again brings it back.
        const row = existing.isActive ? existing : await setWhitelisted(core, existing, true);
        return { data: addressApi(catalog, row), message: 'Address whitelisted successfully' };
      }
      let privateKeySealed: string | null = null;
      const id = randomUUID();
      if (body.privateKey) {
        const key = body.privateKey.startsWith('0x') ? body.privateKey : `0x${body.privateKey}`;
        if (!isHex(key) || key.length !== 66) throw invalid('privateKey must be 32 bytes of hex');
        if (privateKeyToAccount(key).address !== address)
          throw invalid('privateKey does not belong to the address');
        privateKeySealed = encryptSecret(key, core.options.encryptionKey, `sandbox-address-key:${id}`);
      }
      const row = await insertAddress(core, wallet, body, {
        id,
        address,
        type: 'EXTERNAL',
        derivationPath: null,
        addressIndex: null,
        privateKeySealed,
        // Nothing can be swept from an address the service holds no key for.
        disableAutoSweep: body.disableAutoSweep ?? true,
      });
      return { data: addressApi(catalog, row), message: 'Address whitelisted successfully' };
    },
  }),
  endpoint({
    method: 'DELETE',
    pattern: '/v1/wallets/:walletId/addresses/whitelist/:addressId',
    summary: "Extension: remove a whitelisted (external) address (Blockradar's Unwhitelist address)",
    response: { data: schemas.address },
    handle: ({ core }, { wallet, params }) => unwhitelist(core, wallet, params.addressId),
  }),
  endpoint({
    method: 'DELETE',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/whitelist',
    summary: 'Extension: remove a whitelisted (external) address (old path, kept as an alias)',
    response: { data: schemas.address },
    handle: ({ core }, { wallet, params }) => unwhitelist(core, wallet, params.addressId),
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses',
    summary: 'Extension: create a deposit address (the next child of the wallet)',
    body: req.createAddressBody,
    documentedBody: createAddressInput,
    response: { data: schemas.address },
    async handle({ core }, { wallet, body }) {
      const { catalog } = core;
      const index = nextChildIndex(catalog.addressesOf(wallet.id), wallet.id);
      const derivationPath = siblingPath(wallet.derivationPath, index);
      const address = core.keys.address(derivationPath);
      try {
        const row = await insertAddress(core, wallet, body, {
          id: randomUUID(),
          address,
          type: 'INTERNAL',
          derivationPath,
          addressIndex: index,
          privateKeySealed: null,
          disableAutoSweep: body.disableAutoSweep ?? false,
        });
        return { data: addressApi(catalog, row), message: 'Address generated successfully' };
      } finally {
        reserved.get(wallet.id)?.delete(index);
      }
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses',
    summary: "Extension: list a wallet's addresses (search, type)",
    response: { data: schemas.address, paged: true },
    query: ['search', 'type', 'order', 'page', 'limit'],
    handle({ core }, { wallet, query }) {
      return pagedList(
        query,
        'Addresses fetched successfully',
        (window) => {
          const search = query.get('search')?.trim().toLowerCase();
          const type = query.get('type')?.toUpperCase();
          if (type && type !== 'INTERNAL' && type !== 'EXTERNAL')
            throw invalid('type must be INTERNAL or EXTERNAL');
          // A removed whitelisted address is kept (its transactions name it) but no longer listed.
          let rows = core.catalog.addressesOf(wallet.id).filter((r) => r.type !== 'EXTERNAL' || r.isActive);
          if (type) rows = rows.filter((r) => r.type === type);
          if (search) {
            rows = rows.filter(
              (r) => r.address.toLowerCase().includes(search) || r.name?.toLowerCase().includes(search),
            );
          }
          if (orderOf(query) === 'DESC' && query.get('order')) rows = rows.reverse();
          return slicePage(rows, window);
        },
        (row) => addressApi(core.catalog, row),
      );
    },
  }),
];

/** Indexes handed out but not yet in the catalog, so two creations at once never derive the same child. */
const reserved = new Map<string, Set<number>>();

function nextChildIndex(rows: ReadonlyArray<{ addressIndex: number | null }>, walletId: string): number {
  const taken = reserved.get(walletId) ?? new Set<number>();
  reserved.set(walletId, taken);
  let index = 1;
  for (const row of rows)
    if (row.addressIndex !== null && row.addressIndex >= index) index = row.addressIndex + 1;
  while (taken.has(index)) index++;
  taken.add(index);
  return index;
}

/** The child at `index` of the master's HD account: m/44'/60'/n'/0/0 gives m/44'/60'/n'/0/index. */
function siblingPath(masterPath: string, index: number): string {
  return `${masterPath.slice(0, masterPath.lastIndexOf('/'))}/${index}`;
}

/** Unwhitelists an external address: it leaves the list, its row and history stay. */
async function unwhitelist(core: SandboxCore, wallet: WalletRow, addressId: string | undefined) {
  const row = addressOf(core, wallet, addressId);
  if (row.type !== 'EXTERNAL') throw invalid('Only whitelisted (external) addresses can be removed');
  if (!row.isActive) throw notFound('Address');
  const removed = await setWhitelisted(core, row, false);
  // Blockradar's documented answer to DELETE .../addresses/whitelist/{addressId}.
  return { data: addressApi(core.catalog, removed), message: 'Address unwhitelisted successfully' };
}

/** Removes a whitelisted address from the wallet's list, or brings it back; its row and history stay. */
async function setWhitelisted(core: SandboxCore, row: AddressRow, active: boolean): Promise<AddressRow> {
  const configurations = { ...(row.configurations as AddressConfigurations), isActive: active };
  const [updated] = await core.db
    .update(sandboxAddresses)
    .set({ isActive: active, configurations, updatedAt: core.stamp() })
    .where(eq(sandboxAddresses.id, row.id))
    .returning();
  if (!updated) throw new Error('update returned nothing');
  core.catalog.putAddress(updated);
  core.options.onCatalogChanged();
  return updated;
}

/** Stores a new address of the wallet (whitelisted or derived) and adds it to the catalog. */
async function insertAddress(
  core: SandboxCore,
  wallet: WalletRow,
  body: {
    name?: string | undefined;
    metadata?: Record<string, unknown> | null | undefined;
    enableGaslessWithdraw?: boolean | undefined;
    showPrivateKey?: boolean | undefined;
  },
  fields: Pick<
    AddressRow,
    'id' | 'address' | 'type' | 'derivationPath' | 'addressIndex' | 'privateKeySealed'
  > & {
    disableAutoSweep: boolean;
  },
): Promise<AddressRow> {
  const { disableAutoSweep, ...row } = fields;
  const at = core.stamp();
  const [inserted] = await core.db
    .insert(sandboxAddresses)
    .values({
      ...row,
      walletId: wallet.id,
      name: body.name ?? null,
      network: wallet.network,
      metadata: body.metadata ?? null,
      configurations: {
        aml: AML_CLEAR,
        disableAutoSweep,
        enableGaslessWithdraw: body.enableGaslessWithdraw ?? false,
        showPrivateKey: body.showPrivateKey ?? false,
        isActive: true,
      } satisfies AddressConfigurations,
      isActive: true,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!inserted) throw new Error('insert returned nothing');
  core.catalog.putAddress(inserted);
  core.options.onCatalogChanged();
  return inserted;
}
