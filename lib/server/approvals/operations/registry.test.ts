// Every registered operation kind against the embedded sandbox: it declares a default policy and when its
// upstream result is final, and it builds a review of its own kind for a valid payload.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AbiFunction, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIGURATION_KINDS } from '@/lib/approvals/configuration';
import { OPERATION_KINDS, type OperationKind } from '@/lib/approvals/kinds';
import { MAX_EXPIRY_SECONDS, MIN_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import type { TransportOptions } from '@/lib/custody';
import { serviceTokens, users, walletConnections } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { buildPermit } from '@/lib/validation/typed-data';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { CONFIGURATION_DEFAULT_APPROVALS } from '../admin-quorum';
import { createApprovalEngine, type EngineActor } from '../engine';
import { defaultPolicy } from '../policy';
import { OPERATION_TYPES, OPERATIONS, operationType } from './registry';

const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-kinds-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
/** A withdrawal that failed on chain: what a retry retries. */
let failedWithdrawalId: string;
/** A token whose rotation is reviewed. */
const rotatedTokenId = crypto.randomUUID();
let admin: EngineActor;

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => sandbox.fetch(url, init),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.handle.kind,
    encryptionKey: Buffer.alloc(32, 9),
    seed: 'kinds-test',
    blockTimeMs: 1000,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://sandbox.internal/sandbox',
    dataDir,
    fetch: async () => new Response('ok'),
  });
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const [row] = await database.db
    .insert(users)
    .values({ email: 'admin@example.com', name: 'admin', role: 'admin', passwordHash: 'not-a-real-hash' })
    .returning();
  admin = { id: row!.id, email: 'admin@example.com', role: 'admin' };
  await database.db.insert(serviceTokens).values({
    id: rotatedTokenId,
    name: 'Back office',
    secretHash: 'x'.repeat(64),
    prefix: 'abcdefabcdef',
    scopes: ['read'],
    walletIds: [wallet.id],
    dailyCapUsd: '100',
    expiresAt: new Date('2030-01-01T00:00:00Z'),
    createdBy: crypto.randomUUID(),
    createdByEmail: 'admin@example.com',
  });
  // Key rotation and removal review a connected wallet.
  await database.db.insert(walletConnections).values({
    id: wallet.id,
    name: wallet.name,
    blockchain: 'ethereum',
    network: 'testnet',
    address: '0x00000000000000000000000000000000000000cc',
    apiKeySealed: 'v1.sealed',
    apiKeyLast4: 'abcd',
    createdBy: 'admin@example.com',
  });
  // The kinds that pay someone pay an address book entry past its cooling-off (the destination policy): the
  // recipient, and the wallet's cold storage, where its wallet-level auto-settlement rule sends deposits.
  const coldStorage = wallet.addresses.find((a) => a.name === 'Cold storage')!.address;
  await trustRecipients(database.db, wallet.id, [RECIPIENT, coldStorage]);
  // A FAILED withdrawal to the recipient to retry: far above the balance, it fails on chain.
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const made = await sandbox.handle(
    new Request(`http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/withdraw`, {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ assets: [{ id: usdc.id, address: RECIPIENT, amount: '987654321' }] }),
    }),
  );
  failedWithdrawalId = ((await made.json()) as { data: { id: string } }).data.id;
  await sandbox.drain();
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const RECIPIENT = '0x00000000000000000000000000000000000000bb';
const fn = (name: string) => erc20Abi.find((e) => e.type === 'function' && e.name === name) as AbiFunction;

/** A payload each kind's form could send for the sandbox's first wallet. */
function validPayload(kind: OperationKind): unknown {
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;
  const float = wallet.addresses.find((a) => a.name === 'Operating float 1')!;
  const withdrawal = {
    source: { kind: 'master' },
    items: [
      { assetId: usdc.id, symbol: usdc.symbol, decimals: usdc.decimals, address: RECIPIENT, amount: '1.5' },
    ],
  };
  const calls = {
    addressId: float.id,
    calls: [{ address: usdc.address, method: 'approve', abi: [fn('approve')], parameters: [RECIPIENT, '1'] }],
  };
  switch (kind) {
    case 'withdraw':
    case 'withdrawSign':
      return withdrawal;
    case 'swap':
      return {
        addressId: float.id,
        fromAssetId: usdc.id,
        fromSymbol: usdc.symbol,
        fromDecimals: usdc.decimals,
        toAssetId: usdt.id,
        toSymbol: usdt.symbol,
        toDecimals: usdt.decimals,
        amount: '2',
        order: 'FASTEST',
      };
    case 'contractWrite':
    case 'contractSign':
      return calls;
    case 'typedDataSign': {
      const built = buildPermit({
        name: 'USD Coin',
        version: '2',
        chainId: '11155111',
        verifyingContract: usdc.address,
        decimals: usdc.decimals,
        owner: float.address,
        spender: RECIPIENT,
        value: '5',
        nonce: '0',
        deadline: String(Math.floor(Date.now() / 1000) + 86400),
      });
      if (!built.ok) throw new Error(built.error);
      return { addressId: float.id, signer: float.address, ...built.value };
    }
    case 'retry':
      return { transactionId: failedWithdrawalId, addressId: null };
    case 'payout':
      return {
        ...withdrawal,
        fileName: 'payroll.csv',
        items: withdrawal.items.map((i) => ({ ...i, line: 2 })),
      };
    case 'userCreate':
      return { email: 'new@example.com', name: 'New', role: 'viewer' };
    case 'userReset':
      return { userId: admin.id, scope: 'password-and-factors' };
    case 'userRole':
      return { userId: admin.id, role: 'finance' };
    case 'userEnable':
    case 'userDisable':
      return { userId: admin.id };
    case 'policyEdit':
      return { operationType: 'withdraw', approvals: 2, thresholdUsd: null, expirySeconds: 3600 };
    case 'limitEdit':
      return {
        action: 'add',
        rule: {
          walletId: wallet.id,
          scope: 'wallet',
          windowHours: 24,
          unit: 'usd',
          assetSymbol: null,
          limit: '1000',
          onBreach: 'approvals',
          extraApprovals: 1,
        },
      };
    case 'freezeLift':
      return {};
    case 'walletConnect':
      return {
        id: 'another-wallet',
        name: 'Another',
        network: 'testnet',
        blockchain: 'ethereum',
        address: '0x00000000000000000000000000000000000000dd',
        apiKeySealed: 'v1.sealed',
        apiKeyLast4: 'wxyz',
      };
    case 'walletRotate':
      return { walletId: wallet.id, apiKeySealed: 'v1.sealed', apiKeyLast4: 'wxyz' };
    case 'walletRemove':
      return { walletId: wallet.id };
    case 'privateKeyReveal':
      return { walletId: wallet.id, addressId: float.id, address: float.address, addressName: 'Float' };
    case 'addressBookSave':
      return {
        walletId: wallet.id,
        entries: [{ name: 'Acme', address: RECIPIENT, chain: 'ethereum', tags: ['supplier'], notes: '' }],
      };
    case 'coolingOffEdit':
      return { coolingOffSeconds: 3600 };
    case 'serviceTokenCreate':
      return {
        name: 'Payroll',
        scopes: ['read', 'withdrawals:request'],
        walletIds: [wallet.id],
        dailyCapUsd: '5000',
        minApprovals: 2,
        allowedCidrs: ['203.0.113.0/24'],
        rateLimitPerMinute: 60,
        webhookUrlSealed: null,
        webhookHint: null,
        expiresInDays: 30,
      };
    case 'serviceTokenRotate':
      return { tokenId: rotatedTokenId };
    case 'payoutSchedule':
      return {
        walletId: wallet.id,
        name: 'Weekly suppliers',
        cadence: 'weekly',
        dayOfWeek: 1,
        dayOfMonth: null,
        timeOfDay: '09:00',
        startsOn: '2026-01-01',
        payout: {
          ...withdrawal,
          fileName: 'Weekly suppliers',
          items: withdrawal.items.map((i) => ({ ...i, line: 1 })),
        },
      };
    case 'settlementToggle':
      return { isActive: true };
    case 'settlementRule':
      return {
        addressId: float.id,
        ruleId: null,
        rule: {
          name: 'Forward USDC',
          isActive: true,
          order: 'RECOMMENDED',
          slippageTolerance: '-1',
          source: { assets: ['USDC'], blockchain: 'ethereum', minAmount: '100', maxAmount: '-1' },
          destination: { address: RECIPIENT, asset: 'USDC', blockchain: 'ethereum' },
        },
      };
    case 'whitelistAdd':
      return {
        address: RECIPIENT,
        name: 'Exchange',
        disableAutoSweep: false,
        enableGaslessWithdraw: false,
        showPrivateKey: false,
      };
    case 'whitelistRemove':
      return { addressId: wallet.addresses.find((a) => a.type === 'EXTERNAL')!.id };
    case 'beneficiaryDelete':
      return { beneficiaryId: wallet.beneficiaries[0]!.id };
  }
}

describe('operation kinds', () => {
  it('registers exactly the browser-safe list of kinds', () => {
    expect(Object.keys(OPERATION_TYPES).sort()).toEqual([...OPERATION_KINDS].sort());
    expect(OPERATIONS.map((k) => k.key).sort()).toEqual([...OPERATION_KINDS].sort());
    expect(operationType('toString')).toBeUndefined();
    expect(operationType('nope')).toBeUndefined();
  });

  it('gives every configuration kind the default approvals the admins’ quorum counts on', () => {
    for (const key of CONFIGURATION_KINDS)
      expect(OPERATION_TYPES[key].defaultPolicy.approvals, key).toBe(CONFIGURATION_DEFAULT_APPROVALS);
  });

  describe.each(OPERATION_KINDS)('%s', (key) => {
    const kind = OPERATION_TYPES[key];

    it('declares a default policy, and the engine starts from it', () => {
      expect(kind.key).toBe(key);
      expect(kind.defaultPolicy.approvals).toBeGreaterThanOrEqual(1);
      expect(kind.defaultPolicy.expirySeconds).toBeGreaterThanOrEqual(MIN_EXPIRY_SECONDS);
      expect(kind.defaultPolicy.expirySeconds).toBeLessThanOrEqual(MAX_EXPIRY_SECONDS);
      expect(kind.defaultPolicy.thresholdUsd === null || kind.defaultPolicy.thresholdUsd > 0).toBe(true);
      expect(defaultPolicy(key)).toEqual(kind.defaultPolicy);
    });

    it('declares when its upstream result is final', () => {
      expect(['answer', 'settlement']).toContain(kind.finality);
      const found = [{ index: 0, transactionId: 'tx-1', status: 'SUCCESS' }];
      expect([null, 'SUCCESS', 'FAILED']).toContain(kind.finalWhenFound(found));
      // Only a kind whose answer is final may settle on a lookup alone.
      if (kind.finality === 'settlement') expect(kind.finalWhenFound(found)).toBeNull();
    });

    it('builds a review of its own kind for a valid payload', async () => {
      const engine = createApprovalEngine({ db: database.db, connectionFor });
      const preview = await engine.preview(admin, key, wallet.id, validPayload(key));
      if (!preview.ok) throw new Error(preview.error);
      expect(preview.data.review.kind).toBe(key);
      expect(preview.data.summary.length).toBeGreaterThan(0);
      expect(preview.data.requiredApprovals).toBeGreaterThanOrEqual(kind.defaultPolicy.approvals);
    });

    it('refuses a payload that is not its own', () => {
      expect(kind.parse({ nothing: true })).toBeNull();
    });
  });

  it('gives priced operations a USD threshold by default', () => {
    for (const key of ['withdraw', 'withdrawSign', 'swap', 'contractWrite', 'contractSign'] as const)
      expect(OPERATION_TYPES[key].defaultPolicy.thresholdUsd).toBe(10_000);
  });

  it('settles a sign-only withdrawal found after a lost answer by what was signed', () => {
    const kind = OPERATION_TYPES.withdrawSign;
    expect(
      kind.finalWhenFound([
        { index: 0, status: 'FAILED' },
        { index: 1, status: 'SUCCESS' },
      ]),
    ).toBe('SUCCESS');
    expect(kind.finalWhenFound([{ index: 0, status: 'FAILED' }])).toBe('FAILED');
    expect(OPERATION_TYPES.withdraw.finalWhenFound([{ index: 0, status: 'SUCCESS' }])).toBeNull();
  });
});
