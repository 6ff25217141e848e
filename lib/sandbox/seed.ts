import 'server-only';
// First-start data: one business, three wallets with assets, addresses, rules, beneficiaries,
// opening balances and a few hundred historical transactions with webhook logs. The shape and
// amounts follow SANDBOX_SEED; keys (mnemonic, API keys, TOTP secret) are random and sealed.
import { sql } from 'drizzle-orm';
import { formatUnits, getAddress, keccak256, parseUnits, stringToHex, zeroAddress } from 'viem';
import { encryptSecret } from '@/lib/crypto/aead';
import { newTotpSecret } from '@/lib/crypto/totp-secret';
import type { AnyDb } from '@/lib/db/types';
import { type AddressConfigurations, type BusinessRecord, Catalog } from './context';
import type { Plan, TransactionRow } from './core';
import {
  sandboxAddresses,
  sandboxAssets,
  sandboxBalances,
  sandboxBeneficiaries,
  sandboxBlockchains,
  sandboxMeta,
  sandboxRules,
  sandboxTransactions,
  sandboxWalletAssets,
  sandboxWallets,
  sandboxWebhookLogs,
} from './db/schema';
import {
  childPath,
  hashApiKey,
  KeyRing,
  mnemonicToRootKey,
  newApiKey,
  newMnemonic,
  walletPath,
} from './keys';
import { usdValue } from './money';
import { SeededRandom } from './prng';
import { quoteSwap, USD_PRICES } from './rates';
import { emptyBody, type TransactionBody, transactionApi } from './serialize';

/** Child addresses 1 to 3 of each wallet keep their deposits (disableAutoSweep) and hold working funds. */
const FUNDED_CHILDREN = 3;
const INTERNAL_CHILDREN = 10;
const HISTORY_PER_WALLET = 120;

interface ChainSpec {
  name: string;
  slug: string;
  symbol: string;
  nativeName: string;
  chainId: number;
  network: 'testnet' | 'mainnet';
  isL2: boolean;
  gasPriceGwei: string;
  wallet: { name: string; description: string };
  /** Opening native balance of the master wallet, in whole coins. */
  masterNative: string;
  childNative: string;
}

const CHAINS: ChainSpec[] = [
  {
    name: 'Ethereum',
    slug: 'ethereum',
    symbol: 'ETH',
    nativeName: 'Sepolia Ether',
    chainId: 11155111,
    network: 'testnet',
    isL2: false,
    gasPriceGwei: '2',
    wallet: { name: 'Treasury (Ethereum Sepolia)', description: 'Main treasury wallet on Ethereum Sepolia' },
    masterNative: '25',
    childNative: '2',
  },
  {
    name: 'Base',
    slug: 'base',
    symbol: 'ETH',
    nativeName: 'Base Sepolia Ether',
    chainId: 84532,
    network: 'testnet',
    isL2: true,
    gasPriceGwei: '0.05',
    wallet: { name: 'Payouts (Base Sepolia)', description: 'Customer payouts on Base Sepolia' },
    masterNative: '15',
    childNative: '1',
  },
  {
    name: 'Polygon',
    slug: 'polygon',
    symbol: 'POL',
    nativeName: 'Polygon Ecosystem Token',
    chainId: 137,
    network: 'mainnet',
    isL2: false,
    gasPriceGwei: '40',
    wallet: { name: 'Collections (Polygon)', description: 'Merchant collections on Polygon' },
    masterNative: '50000',
    childNative: '500',
  },
];

const TOKENS = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, master: '250000', child: '5000' },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, master: '120000', child: '5000' },
];

const DAY = 86_400_000;

export interface SeedInput {
  db: AnyDb;
  seed: string;
  encryptionKey: Buffer;
  webhookUrl: string;
  now: number;
  confirmations: number;
  /** SANDBOX_SEED_TRANSACTIONS: historical transactions added to the first wallet (0: none). */
  extraTransactions: number;
}

export async function isSeeded(db: AnyDb): Promise<boolean> {
  const rows = await db.select({ key: sandboxMeta.key }).from(sandboxMeta);
  return rows.some((r) => r.key === 'seeded');
}

export async function seedSandbox(input: SeedInput): Promise<void> {
  const { db, seed, encryptionKey, now } = input;
  const rnd = new SeededRandom(seed);
  const mnemonic = newMnemonic();
  const totpSecret = newTotpSecret();
  const keys = new KeyRing(mnemonicToRootKey(mnemonic));
  const at = (msAgo: number) => new Date(now - msAgo);
  const created = at(90 * DAY);

  const business: BusinessRecord = {
    id: rnd.uuid(),
    name: 'Acme Payments Ltd (sandbox)',
    sector: 'fintech',
    status: 'ACTIVE',
    createdAt: created.toISOString(),
    updatedAt: created.toISOString(),
    configurations: {
      billing: { ccEmails: [], toEmails: ['finance@acme.example'] },
      contact: { email: 'ops@acme.example' },
      details: { description: 'Sandbox business for the custody console', website: 'https://acme.example' },
      hideLogoUrlInResponse: false,
      useCustomWebhookSignatureHeader: false,
    },
    user: {
      id: rnd.uuid(),
      firstName: 'Ada',
      lastName: 'Okafor',
      email: 'ada@acme.example',
      emailVerified: true,
      twoFactorAuthEnabled: true,
      configurations: { setNewPasswordRequired: false },
      createdAt: created.toISOString(),
      updatedAt: created.toISOString(),
    },
  };

  const chains: Array<typeof sandboxBlockchains.$inferInsert> = [];
  const assets: Array<typeof sandboxAssets.$inferInsert> = [];
  const wallets: Array<typeof sandboxWallets.$inferInsert> = [];
  const walletAssets: Array<typeof sandboxWalletAssets.$inferInsert> = [];
  const addresses: Array<typeof sandboxAddresses.$inferInsert> = [];
  const balances: Array<typeof sandboxBalances.$inferInsert> = [];
  const rules: Array<typeof sandboxRules.$inferInsert> = [];
  const beneficiaries: Array<typeof sandboxBeneficiaries.$inferInsert> = [];
  const transactions: Array<typeof sandboxTransactions.$inferInsert> = [];
  const logs: Array<typeof sandboxWebhookLogs.$inferInsert> = [];

  const aml = { message: 'Address is not sanctioned', provider: 'ofac', status: 'success' };

  CHAINS.forEach((spec, w) => {
    const chainId = rnd.uuid();
    chains.push({
      id: chainId,
      name: spec.name,
      slug: spec.slug,
      symbol: spec.symbol,
      derivationPath: "m/44'/60'/0'/0",
      isEvmCompatible: true,
      isL2: spec.isL2,
      tokenStandard: 'ERC20',
      logoUrl: `https://assets.sandbox.invalid/chains/${spec.slug}.png`,
      chainId: spec.chainId,
      network: spec.network,
      gasPriceWei: parseUnits(spec.gasPriceGwei, 9).toString(),
      blockNumber: 5_000_000 + rnd.int(0, 1_000_000),
      createdAt: created,
      updatedAt: created,
    });
    const chainAssets = [
      {
        id: rnd.uuid(),
        address: zeroAddress as string,
        name: spec.nativeName,
        symbol: spec.symbol,
        decimals: 18,
        standard: null as string | null,
        master: spec.masterNative,
        child: spec.childNative,
      },
      ...TOKENS.map((t) => ({
        id: rnd.uuid(),
        address: getAddress(
          keccak256(stringToHex(`${seed}:${spec.slug}:${t.symbol}`))
            .slice(-40)
            .padStart(42, '0x'),
        ),
        name: t.name,
        symbol: t.symbol,
        decimals: t.decimals,
        standard: 'ERC20' as string | null,
        master: t.master,
        child: t.child,
      })),
    ];
    for (const a of chainAssets) {
      assets.push({
        id: a.id,
        blockchainId: chainId,
        address: a.address,
        name: a.name,
        symbol: a.symbol,
        decimals: a.decimals,
        network: spec.network,
        standard: a.standard,
        logoUrl: `https://assets.sandbox.invalid/assets/${a.symbol.toLowerCase()}.png`,
        usdPrice: USD_PRICES[a.symbol] ?? '0',
        isActive: true,
        createdAt: created,
        updatedAt: created,
      });
    }

    const walletId = rnd.uuid();
    const apiKey = newApiKey();
    const masterAddress = keys.address(walletPath(w));
    wallets.push({
      id: walletId,
      blockchainId: chainId,
      name: spec.wallet.name,
      description: spec.wallet.description,
      network: spec.network,
      address: masterAddress,
      derivationPath: walletPath(w),
      accountIndex: w,
      apiKeyHash: hashApiKey(apiKey),
      apiKeySealed: encryptSecret(apiKey, encryptionKey, `sandbox-api-key:${walletId}`),
      credentialId: rnd.uuid(),
      status: 'ACTIVE',
      isActive: true,
      autoSettlement: { isActive: w === 0, name: `${spec.wallet.name} settlement` },
      createdAt: created,
      updatedAt: created,
    });
    for (const a of chainAssets) {
      walletAssets.push({
        id: rnd.uuid(),
        walletId,
        assetId: a.id,
        isActive: true,
        createdAt: created,
        updatedAt: created,
      });
    }
    for (const a of chainAssets) {
      balances.push({
        assetId: a.id,
        holder: masterAddress.toLowerCase(),
        amount: parseUnits(a.master, a.decimals).toString(),
      });
    }

    const children: Array<{ id: string; address: string; funded: boolean }> = [];
    for (let i = 1; i <= INTERNAL_CHILDREN; i++) {
      const funded = i <= FUNDED_CHILDREN;
      const id = rnd.uuid();
      const address = keys.address(childPath(w, i));
      const config: AddressConfigurations = {
        aml,
        disableAutoSweep: funded,
        enableGaslessWithdraw: false,
        // One address per wallet lets admins reveal its key (re-authenticated, audited).
        showPrivateKey: i === FUNDED_CHILDREN + 1,
        isActive: true,
      };
      const createdAt = at((80 - i) * DAY);
      addresses.push({
        id,
        walletId,
        address,
        name: funded ? `Operating float ${i}` : `Customer ${String(i - FUNDED_CHILDREN).padStart(3, '0')}`,
        type: 'INTERNAL',
        network: spec.network,
        derivationPath: childPath(w, i),
        addressIndex: i,
        metadata: funded ? { purpose: 'float' } : { customerId: `cus_${rnd.reference()}` },
        configurations: config,
        isActive: true,
        privateKeySealed: null,
        createdAt,
        updatedAt: createdAt,
      });
      children.push({ id, address, funded });
      if (funded) {
        for (const a of chainAssets) {
          balances.push({
            assetId: a.id,
            holder: address.toLowerCase(),
            amount: parseUnits(a.child, a.decimals).toString(),
          });
        }
      }
    }
    const externals: string[] = [];
    for (let i = 0; i < 3; i++) {
      const address = getAddress(rnd.hex(20));
      externals.push(address);
      const createdAt = at((60 - i * 7) * DAY);
      addresses.push({
        id: rnd.uuid(),
        walletId,
        address,
        name: ['Exchange deposit', 'Cold storage', 'Partner settlement'][i] ?? `External ${i}`,
        type: 'EXTERNAL',
        network: spec.network,
        derivationPath: null,
        addressIndex: null,
        metadata: null,
        configurations: {
          aml,
          disableAutoSweep: true,
          enableGaslessWithdraw: false,
          showPrivateKey: false,
          isActive: true,
        } satisfies AddressConfigurations,
        isActive: true,
        privateKeySealed: null,
        createdAt,
        updatedAt: createdAt,
      });
    }

    for (let i = 0; i < 6; i++) {
      const createdAt = at((50 - i * 5) * DAY);
      beneficiaries.push({
        id: rnd.uuid(),
        walletId,
        address: i < 3 ? (externals[i] ?? getAddress(rnd.hex(20))) : getAddress(rnd.hex(20)),
        name: [
          'Globex Supplies',
          'Initech Payroll',
          'Umbrella Logistics',
          'Hooli Cloud',
          'Stark Components',
          'Wayne Freight',
        ][i]!,
        isActive: true,
        isDefault: i === 0,
        isSettlement: i < 2,
        isWhitelisted: i < 3,
        settlementFrequency: 'WEEKLY',
        createdAt,
        updatedAt: createdAt,
        deletedAt: null,
      });
    }

    const ruleAt = at(40 * DAY);
    rules.push({
      id: rnd.uuid(),
      walletId,
      addressId: null,
      name: 'Sweep large USDC to cold storage',
      isActive: true,
      order: 'RECOMMENDED',
      slippageTolerance: '0.5',
      source: { assets: ['USDC'], blockchain: spec.slug, minAmount: '10000', maxAmount: '1000000' },
      destination: { address: externals[1]!, asset: 'USDC', blockchain: spec.slug },
      createdAt: ruleAt,
      updatedAt: ruleAt,
    });
    for (const [n, child] of [children[FUNDED_CHILDREN], children[FUNDED_CHILDREN + 1]].entries()) {
      if (!child) continue;
      rules.push({
        id: rnd.uuid(),
        walletId,
        addressId: child.id,
        name: n === 0 ? 'Convert USDT receipts to USDC' : 'Forward large USDT to partner',
        isActive: n === 0,
        order: n === 0 ? 'CHEAPEST' : 'FASTEST',
        slippageTolerance: '1',
        source: { assets: ['USDT'], blockchain: spec.slug, minAmount: '50000', maxAmount: '500000' },
        destination: { address: externals[2]!, asset: n === 0 ? 'USDC' : 'USDT', blockchain: spec.slug },
        createdAt: ruleAt,
        updatedAt: ruleAt,
      });
    }

    // History: every type and status, spread over the last 60 days, with webhook logs for settled ones.
    const types = [
      'DEPOSIT',
      'DEPOSIT',
      'DEPOSIT',
      'WITHDRAW',
      'WITHDRAW',
      'SWAP',
      'CUSTOM_SMART_CONTRACT',
      'SIGNED',
      'SALVAGE',
    ];
    // `days`: how far back the dates reach; `withLog`: a webhook log for a settled one (the bulk history has none).
    const historyRow = (n: number, rnd: SeededRandom, days: number, withLog: boolean) => {
      const type = types[n % types.length]!;
      const roll = rnd.next();
      const status =
        type === 'SIGNED' ? 'SUCCESS' : roll < 0.8 ? 'SUCCESS' : roll < 0.94 ? 'FAILED' : 'PENDING';
      const ai = rnd.int(0, chainAssets.length - 1);
      const asset = chainAssets[ai]!;
      const amountText =
        asset.decimals === 18
          ? String(rnd.int(1, 400) / 100)
          : String(rnd.int(10, 25_000) + rnd.int(0, 99) / 100);
      const amount = parseUnits(amountText, asset.decimals);
      const child = rnd.pick(children);
      const external = rnd.pick(externals);
      const createdAt = at(rnd.int(60, 60 * 24 * days) * 60_000);
      const body: TransactionBody = emptyBody(spec.network, spec.chainId);
      body.tokenAddress = asset.address === zeroAddress ? null : asset.address;
      body.rateUSD = USD_PRICES[asset.symbol] ?? null;
      body.amountUSD = usdValue(amount, asset.decimals, USD_PRICES[asset.symbol] ?? '0');
      body.amountPaid = formatUnits(amount, asset.decimals);
      body.confirmed = status === 'SUCCESS';
      body.amlScreening = type === 'DEPOSIT' ? aml : null;
      let sender: string = masterAddress;
      let recipient: string = external;
      let addressId: string | null = null;
      if (type === 'DEPOSIT') {
        sender = getAddress(rnd.hex(20));
        recipient = child.address;
        addressId = child.id;
        if (status === 'SUCCESS' && !child.funded) {
          Object.assign(body, {
            assetSwept: true,
            assetSweptAmount: body.amountPaid,
            assetSweptGasFee: formatUnits(65_000n * parseUnits(spec.gasPriceGwei, 9), 18),
            assetSweptAt: new Date(createdAt.getTime() + 60_000).toISOString(),
            assetSweptHash: rnd.hex(32),
            assetSweptRecipientAddress: masterAddress,
            assetSweptSenderAddress: child.address,
            assetSweptResponse: 'Asset swept successfully',
            reason: 'Asset swept to master wallet',
          } satisfies Partial<TransactionBody>);
        } else if (status === 'SUCCESS') {
          body.assetSwept = false;
        }
      } else if (type === 'SALVAGE') {
        sender = child.address;
        recipient = masterAddress;
        addressId = child.id;
        body.note = 'Salvage of stranded funds';
      } else if (type === 'WITHDRAW' && rnd.next() < 0.4) {
        sender = child.address;
        addressId = child.id;
      } else if (type === 'SWAP') {
        sender = child.address;
        recipient = child.address;
        addressId = child.id;
        const to = chainAssets[(ai + 1) % chainAssets.length]!;
        const quote = quoteSwap(asset, to, amount, 'RECOMMENDED');
        Object.assign(body, {
          rate: quote.rate,
          toAmount: formatUnits(quote.toAmount, to.decimals),
          toCurrency: to.symbol,
          toAssetId: to.id,
          toWalletId: walletId,
        });
      } else if (type === 'CUSTOM_SMART_CONTRACT' || type === 'SIGNED') {
        sender = child.address;
        addressId = child.id;
        recipient = chainAssets[1]!.address;
        body.reason = JSON.stringify({
          address: recipient,
          method: 'transfer',
          parameters: [external, amount.toString()],
        });
        if (type === 'SIGNED') body.signedTransaction = rnd.hex(110);
      }
      if (status === 'FAILED')
        body.reason = rnd.pick(['Insufficient balance', 'Execution reverted', 'Nonce too low']);
      const settled = status !== 'PENDING';
      const gasUsed = asset.decimals === 18 ? 21_000 : 65_000;
      if (settled && type !== 'SIGNED') {
        const gasPrice = parseUnits(spec.gasPriceGwei, 9);
        body.gasUsed = gasUsed;
        body.gasPrice = formatUnits(gasPrice, 18);
        body.gasFee = formatUnits(BigInt(gasUsed) * gasPrice, 18);
        body.blockHash = rnd.hex(32);
      }
      const id = rnd.uuid();
      const reference = rnd.reference();
      const blockNumber = settled && type !== 'SIGNED' ? 4_000_000 + n * 97 + rnd.int(0, 90) : null;
      const row = {
        id,
        walletId,
        addressId,
        reference,
        hash: settled ? rnd.hex(32) : null,
        type,
        status,
        assetId: asset.id,
        amount: formatUnits(amount, asset.decimals),
        senderAddress: getAddress(sender),
        recipientAddress: getAddress(recipient),
        confirmations: settled ? (blockNumber ? input.confirmations + rnd.int(0, 2000) : null) : 0,
        blockNumber,
        body,
        plan: (status === 'PENDING' ? { kind: 'stuck' } : null) satisfies Plan | null,
        createdAt,
        updatedAt: new Date(createdAt.getTime() + 90_000),
      };
      transactions.push(row);
      if (settled && withLog) {
        const event =
          type === 'DEPOSIT' && body.assetSwept ? 'deposit.swept.success' : eventName(type, status);
        const failed = rnd.next() < 0.12;
        const logAt = new Date(createdAt.getTime() + 95_000);
        logs.push({
          id: rnd.uuid(),
          walletId,
          transactionId: id,
          event,
          url: input.webhookUrl,
          attempts: failed ? 4 : rnd.next() < 0.85 ? 1 : 2,
          status: failed ? 'failed' : 'success',
          response: failed ? { status: 502, text: 'Bad Gateway' } : 'OK',
          payload: { id, reference, type, status },
          nextAttemptAt: null,
          createdAt: logAt,
          updatedAt: logAt,
        });
      }
    };
    for (let n = 0; n < HISTORY_PER_WALLET; n++) historyRow(n, rnd, 60, true);
    // SANDBOX_SEED_TRANSACTIONS: a large history for the first wallet, drawn from its own sequence so the rest
    // of the seed stays as it is without it; a year of dates, so sorting and filtering have something to do.
    if (w === 0) {
      const bulk = new SeededRandom(`${seed}:bulk`);
      for (let n = 0; n < input.extraTransactions; n++) historyRow(HISTORY_PER_WALLET + n, bulk, 365, false);
    }
  });

  await db.transaction(async (q) => {
    await q.insert(sandboxMeta).values([
      { key: 'business', value: business },
      {
        key: 'secrets',
        value: {
          mnemonic: encryptSecret(mnemonic, encryptionKey, 'sandbox-mnemonic'),
          totpSecret: encryptSecret(totpSecret, encryptionKey, 'sandbox-totp'),
        },
      },
    ]);
    await q.insert(sandboxBlockchains).values(chains);
    await q.insert(sandboxAssets).values(assets);
    await q.insert(sandboxWallets).values(wallets);
    await q.insert(sandboxWalletAssets).values(walletAssets);
    await q.insert(sandboxAddresses).values(addresses);
    await q.insert(sandboxBalances).values(balances);
    await q.insert(sandboxRules).values(rules);
    await q.insert(sandboxBeneficiaries).values(beneficiaries);
    // 500 rows (about 8,500 parameters) per statement: 50,000 rows are 100 statements in this one transaction.
    for (let i = 0; i < transactions.length; i += 500) {
      await q.insert(sandboxTransactions).values(transactions.slice(i, i + 500));
    }
    // Payloads are the full Transaction as it was delivered, rendered with the catalog just written.
    const catalog = new Catalog();
    await catalog.load(q, encryptionKey);
    const byId = new Map(transactions.map((t) => [t.id, t]));
    for (const log of logs) {
      const tx = byId.get(log.transactionId);
      if (tx) log.payload = transactionApi(catalog, tx as TransactionRow);
    }
    for (let i = 0; i < logs.length; i += 200) {
      await q.insert(sandboxWebhookLogs).values(logs.slice(i, i + 200));
    }
    // Written last: a crash mid-seed leaves no marker, and the transaction rolls back anyway.
    await q.insert(sandboxMeta).values({ key: 'seeded', value: { at: new Date(now).toISOString(), seed } });
  });
  // After a bulk load the planner has no statistics and no page is marked all-visible (PGlite runs no
  // autovacuum): both now, so the list picks its indexes and counts from them alone.
  if (input.extraTransactions > 0) await db.execute(sql`vacuum analyze sandbox_transactions`);
}

function eventName(type: string, status: string): string {
  const outcome = status === 'SUCCESS' ? 'success' : 'failed';
  const prefix: Record<string, string> = {
    DEPOSIT: 'deposit',
    WITHDRAW: 'withdraw',
    SWAP: 'swap',
    CUSTOM_SMART_CONTRACT: 'custom-smart-contract',
    SIGNED: 'signed',
    SALVAGE: 'salvage',
  };
  return `${prefix[type] ?? type.toLowerCase()}.${outcome}`;
}
