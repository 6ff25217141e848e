// Contract write and sign-only requests through the approval engine against the embedded sandbox: the
// two-factor code is needed at submission, a wrong one leaves the request resubmittable, and the code is
// never written anywhere. Calls are decoded and priced like withdrawals: the USD threshold and the spending
// limits hold them, and a call the console cannot value needs the most approvals the policy asks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type AbiFunction, erc20Abi, getAddress, maxUint256, parseAbi } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReview } from '@/lib/approvals/contracts';
import type { LimitCheck } from '@/lib/approvals/limits';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import { approvalPolicies, operationRequests, spendingLimits, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { readTokenUnits } from '../contract-tokens';
import { createApprovalEngine, type EngineActor } from './engine';
import { type ContractCallsPayload, contractCallsPayloadSchema } from './operations/contract-write';

const dataDir = mkdtempSync(path.join(tmpdir(), 'contract-approvals-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let requester: EngineActor;
let approver: EngineActor;
let approver2: EngineActor;
const SPENDER = '0x00000000000000000000000000000000000000cc';
const fn = (name: string) => erc20Abi.find((e) => e.type === 'function' && e.name === name) as AbiFunction;

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

const engine = () => createApprovalEngine({ db: database.db, connectionFor, unknownOutcomeWindowMs: 0 });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

function floatAddress(n: number) {
  return wallet.addresses.filter((a) => /Operating float/.test(a.name ?? ''))[n]!;
}

function usdcAddress() {
  return wallet.assets.find((a) => a.symbol === 'USDC')!.address;
}

async function readAllowance(owner: string, spender: string): Promise<string> {
  const res = await sandbox.handle(
    new Request(`http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/contracts/read`, {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        calls: [
          {
            address: usdcAddress(),
            method: 'allowance',
            abi: [fn('allowance')],
            parameters: [owner, spender],
          },
        ],
      }),
    }),
  );
  return ((await res.json()) as { data: string }).data;
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.handle.kind,
    encryptionKey: Buffer.alloc(32, 9),
    seed: 'contract-approvals-test',
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
  requester = await addUser('contract-admin@example.com', 'admin');
  approver = await addUser('contract-finance@example.com', 'finance');
  // The calls and the withdrawals beside them pay `recipient()`s and allow SPENDER: address book entries past
  // their cooling-off (the destination policy holds a decoded call's recipient and spender).
  await trustRecipients(database.db, wallet.id, [
    SPENDER,
    ...Array.from({ length: 100 }, (_, i) => `0x${(0xc0ffee01 + i).toString(16).padStart(40, '0')}`),
  ]);
  approver2 = await addUser('contract-finance2@example.com', 'finance');
});

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('contract calls through approvals', () => {
  it('refuses a payload whose values do not fit the ABI', () => {
    const base: ContractCallsPayload = {
      addressId: 'a',
      calls: [{ address: SPENDER, method: 'approve', abi: [fn('approve')], parameters: [SPENDER, '1'] }],
    };
    expect(contractCallsPayloadSchema.safeParse(base).success).toBe(true);
    const overflow = structuredClone(base);
    overflow.calls[0]!.parameters = [SPENDER, (maxUint256 + 1n).toString()];
    expect(contractCallsPayloadSchema.safeParse(overflow).success).toBe(false);
    const unknownMethod = structuredClone(base);
    unknownMethod.calls[0]!.method = 'mint';
    expect(contractCallsPayloadSchema.safeParse(unknownMethod).success).toBe(false);
  });

  it('a write needs the code: missing and wrong codes fail recoverably, the right one settles once', async () => {
    const e = engine();
    const child = floatAddress(0);
    const payload: ContractCallsPayload = {
      addressId: child.id,
      calls: [
        { address: usdcAddress(), method: 'approve', abi: [fn('approve')], parameters: [SPENDER, '4242'] },
      ],
    };
    const created = await e.create(requester, 'contractWrite', wallet.id, payload);
    expect(created.ok).toBe(true);
    const id = created.ok ? created.data.id : '';
    const review = (await e.view(id))?.request.review as {
      calls: Array<{ method: string; networkFee: string | null }>;
    };
    expect(review.calls[0]).toMatchObject({ method: 'approve' });
    expect(review.calls[0]?.networkFee).toMatch(/^\d/);

    // No code (e.g. submitted by a background thaw): refused before anything goes upstream.
    const noCode = await e.approve(approver, id);
    expect(noCode.ok && noCode.data.status).toBe('SUBMIT_FAILED');
    expect((await e.view(id))?.request.lastError).toMatch(/two-factor code is required/);

    const wrong = await e.resubmit(approver, id, sandbox.totpCode() === '000000' ? '111111' : '000000');
    expect(wrong.ok && wrong.data.status).toBe('SUBMIT_FAILED');
    expect((await e.view(id))?.request.lastError).toMatch(/Invalid two-factor code/);
    expect(await readAllowance(child.address, SPENDER)).toBe('0');

    const code = sandbox.totpCode();
    const right = await e.resubmit(approver, id, code);
    expect(right.ok && right.data.status).toBe('SUBMITTED');
    await sandbox.drain();
    expect(await e.followUpRound(id, { force: true })).toBe('SUCCESS');
    expect(await readAllowance(child.address, SPENDER)).toBe('4242');

    // The code was used once and written nowhere.
    for (const table of ['audit_log', 'operation_events', 'operation_requests']) {
      const rows = await database.db.execute(sql.raw(`select * from ${table}`));
      const text = JSON.stringify((rows as { rows?: unknown[] }).rows ?? rows);
      expect(text.includes(`"${code}"`), `${table} holds the code`).toBe(false);
    }
  });

  it('a batch write reports failed calls by index; sign-only decodes the signed transaction', async () => {
    const e = engine();
    const child = floatAddress(1);
    const batch: ContractCallsPayload = {
      addressId: child.id,
      calls: [
        { address: usdcAddress(), method: 'approve', abi: [fn('approve')], parameters: [SPENDER, '7'] },
        {
          address: usdcAddress(),
          method: 'transfer',
          abi: [fn('transfer')],
          // 9,000 USDC: above the float's balance, below the USD threshold (one approval).
          parameters: [SPENDER, '9000000000'],
        },
      ],
    };
    const created = await e.create(requester, 'contractWrite', wallet.id, batch);
    const id = created.ok ? created.data.id : '';
    const approved = await e.approve(approver, id, sandbox.totpCode());
    expect(approved.ok && approved.data.status).toBe('SUBMITTED');
    const result = (await e.view(id))?.request.result as {
      success: Array<{ index: number }>;
      errors: Array<{ index: number; message: string }>;
    };
    expect(result.success.map((s) => s.index)).toEqual([0]);
    expect(result.errors).toEqual([{ index: 1, message: expect.stringMatching(/exceeds balance/) }]);

    const sign: ContractCallsPayload = {
      addressId: child.id,
      calls: [
        { address: usdcAddress(), method: 'approve', abi: [fn('approve')], parameters: [SPENDER, '9'] },
      ],
    };
    const signRequest = await e.create(requester, 'contractSign', wallet.id, sign);
    const signId = signRequest.ok ? signRequest.data.id : '';
    const signed = await e.approve(approver, signId, sandbox.totpCode());
    expect(signed.ok && signed.data.status).toBe('SUCCESS');
    const signResult = (await e.view(signId))?.request.result as {
      success: Array<{ decoded: { to: string; method: string; args: string[]; chainId: number } }>;
    };
    expect(signResult.success[0]?.decoded).toMatchObject({
      method: 'approve',
      args: [expect.stringMatching(/^0x0+cc$/i), '9'],
    });
    expect(signResult.success[0]?.decoded.to.toLowerCase()).toBe(usdcAddress().toLowerCase());
    expect(signResult.success[0]?.decoded.chainId).toBeGreaterThan(0);
  });

  it('the review reads token amounts both ways: token units and base units', async () => {
    const e = engine();
    const unlisted = '0x00000000000000000000000000000000000000dd';
    const payload: ContractCallsPayload = {
      addressId: floatAddress(0).id,
      calls: [
        {
          address: usdcAddress(),
          method: 'transfer',
          abi: [fn('transfer')],
          parameters: [SPENDER, '1500000'],
        },
        { address: unlisted, method: 'approve', abi: [fn('approve')], parameters: [SPENDER, '1500000'] },
      ],
    };
    const created = await e.create(requester, 'contractWrite', wallet.id, payload);
    expect(created.ok).toBe(true);
    const review = (await e.view(created.ok ? created.data.id : ''))?.request.review as {
      calls: Array<{ token: string | null; args: Array<{ value: string; amount?: unknown }> }>;
    };
    expect(review.calls[0]?.token).toBe('USDC');
    expect(review.calls[0]?.args[1]).toEqual({
      name: 'amount',
      type: 'uint256',
      value: '1500000',
      amount: { units: '1.5 USDC', base: '1,500,000 base units' },
    });
    expect(review.calls[0]?.args[0]?.amount).toBeUndefined();
    // A contract that answers no decimals(): its amount stays in base units only.
    expect(review.calls[1]?.args[1]).toEqual({ name: 'amount', type: 'uint256', value: '1500000' });
  });

  it("reads a contract's own decimals() and symbol(), and null where it answers none", async () => {
    const client = createCustodyClient((await connectionFor(wallet.id))!);
    expect(await readTokenUnits(client, wallet.id, usdcAddress())).toEqual({ symbol: 'USDC', decimals: 6 });
    expect(await readTokenUnits(client, wallet.id, '0x00000000000000000000000000000000000000dd')).toBeNull();
  });
});

describe('contract calls are priced and held like withdrawals', () => {
  const usdc = () => wallet.assets.find((a) => a.symbol === 'USDC')!;
  const transfer = (to: string, baseUnits: string) => ({
    address: usdcAddress(),
    method: 'transfer',
    abi: [fn('transfer')],
    parameters: [to, baseUnits],
  });
  const writeOf = (...calls: ContractCallsPayload['calls']): ContractCallsPayload => ({
    addressId: floatAddress(2).id,
    calls,
  });
  let counter = 0;
  const recipient = () => {
    counter += 1;
    return `0x${(0xc0ffee00 + counter).toString(16).padStart(40, '0')}`;
  };
  const withdrawal = (amount: string) => ({
    source: { kind: 'master' },
    items: [{ assetId: usdc().id, symbol: 'USDC', decimals: usdc().decimals, address: recipient(), amount }],
  });

  async function reviewOf(id: string) {
    const view = await engine().view(id);
    return { review: view?.request.review as ContractReview & { limits?: LimitCheck }, row: view?.request };
  }

  // Each test starts from the default policies, no limit and an empty window.
  afterEach(async () => {
    await database.db.delete(spendingLimits);
    await database.db.delete(approvalPolicies);
    await database.db.update(operationRequests).set({ status: 'CANCELLED' });
  });

  it('a USDC transfer above the USD threshold needs the count above the threshold, and shows what it moves', async () => {
    const e = engine();
    const to = recipient();
    // 20,000 USDC at $1: above the default $10,000 threshold.
    const preview = await e.preview(
      requester,
      'contractWrite',
      wallet.id,
      writeOf(transfer(to, '20000000000')),
    );
    if (!preview.ok) throw new Error(preview.error);
    expect(preview.data.requiredApprovals).toBe(2);
    expect(preview.data.amountUsd).toBe(20_000);

    const above = await e.create(requester, 'contractWrite', wallet.id, writeOf(transfer(to, '20000000000')));
    if (!above.ok) throw new Error(above.error);
    expect(above.data.requiredApprovals).toBe(2);
    const { review, row } = await reviewOf(above.data.id);
    expect(row?.amountUsd).toBe('20000.00');
    expect(review.totalUsd).toBe(20_000);
    expect(review.calls[0]).toMatchObject({
      usd: 20_000,
      undecodable: null,
      decoded: {
        function: 'transfer',
        token: 'USDC',
        to: getAddress(to),
        role: 'recipient',
        amount: '20,000 USDC',
        base: '20,000,000,000 base units',
        usd: 20_000,
        unlimited: false,
      },
    });
    // One approval is not enough; the second approver's is.
    const once = await e.approve(approver, above.data.id, sandbox.totpCode());
    expect(once.ok && once.data.status).toBe('PENDING_APPROVAL');
    const twice = await e.approve(approver2, above.data.id, sandbox.totpCode());
    expect(twice.ok && twice.data.status).not.toBe('PENDING_APPROVAL');
    expect((await e.view(above.data.id))?.approvals).toHaveLength(2);

    // $9,000 is below the threshold: the policy's own count.
    const below = await e.create(requester, 'contractWrite', wallet.id, writeOf(transfer(to, '9000000000')));
    expect(below.ok && below.data.requiredApprovals).toBe(1);

    // A batch is priced call by call and summed: two calls of $6,000 are $12,000, above the threshold.
    const batch = await e.create(
      requester,
      'contractWrite',
      wallet.id,
      writeOf(transfer(to, '6000000000'), {
        address: usdcAddress(),
        method: 'approve',
        abi: [fn('approve')],
        parameters: [SPENDER, '6000000000'],
      }),
    );
    if (!batch.ok) throw new Error(batch.error);
    expect(batch.data.requiredApprovals).toBe(2);
    const batchReview = (await reviewOf(batch.data.id)).review;
    expect(batchReview.calls.map((c) => c.usd)).toEqual([6_000, 6_000]);
    expect(batchReview.calls[1]?.decoded).toMatchObject({ function: 'approve', role: 'spender', usd: 6_000 });
    expect(batchReview.totalUsd).toBe(12_000);
  });

  it('native coin sent with a call is priced like a native withdrawal and added', async () => {
    const e = engine();
    const call = { ...transfer(recipient(), '1000000'), value: '10000000000000000' };
    // The coin goes to the called address itself: held to the destination policy like a withdrawal's recipient.
    const refused = await e.create(requester, 'contractWrite', wallet.id, {
      ...writeOf(transfer(recipient(), '1000000')),
      calls: [call],
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(
      /^The address the native coin is sent to: 0x[0-9a-fA-F]{40} is not in this wallet's address book/,
    );
    await trustRecipients(database.db, wallet.id, [usdc().address]);
    // 1 USDC plus 0.01 ETH at $3,000: $31.
    const created = await e.create(requester, 'contractWrite', wallet.id, {
      ...writeOf(transfer(recipient(), '1000000')),
      calls: [{ ...transfer(recipient(), '1000000'), value: '10000000000000000' }],
    });
    if (!created.ok) throw new Error(created.error);
    const { review, row } = await reviewOf(created.data.id);
    expect(review.calls[0]?.native).toEqual({ amount: '0.01', symbol: 'ETH', usd: 30 });
    expect(review.calls[0]?.usd).toBe(31);
    expect(row?.amountUsd).toBe('31.00');
    expect(created.data.requiredApprovals).toBe(1);
  });

  it('a contract transfer counts toward a spending limit together with withdrawals', async () => {
    const addRule = (onBreach: 'approvals' | 'refuse') =>
      database.db.insert(spendingLimits).values({
        walletId: wallet.id,
        scope: 'wallet',
        windowHours: 24,
        unit: 'usd',
        assetSymbol: null,
        limitAmount: '1000',
        onBreach,
        extraApprovals: onBreach === 'approvals' ? 1 : 0,
        createdBy: 'test',
      });
    await addRule('approvals');
    const e = engine();
    // $600 withdrawn, then a $600 contract transfer: $1,200 against a $1,000 limit.
    const withdrawn = await e.create(requester, 'withdraw', wallet.id, withdrawal('600'));
    expect(withdrawn.ok && withdrawn.data.requiredApprovals).toBe(1);
    const write = await e.create(
      requester,
      'contractWrite',
      wallet.id,
      writeOf(transfer(recipient(), '600000000')),
    );
    if (!write.ok) throw new Error(write.error);
    expect(write.data.requiredApprovals).toBe(2);
    expect((await reviewOf(write.data.id)).review.limits?.rows[0]).toMatchObject({
      used: '600.00',
      request: '600.00',
      remainingAfter: '-200.00',
      breached: true,
    });

    // A refusing limit refuses the next one, and the contract transfer counts against the next withdrawal.
    await database.db.delete(spendingLimits);
    await addRule('refuse');
    const refused = await e.create(
      requester,
      'contractWrite',
      wallet.id,
      writeOf(transfer(recipient(), '600000000')),
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/^Refused by the spending limit \$1,000\.00 per 24 hours/);
    expect(!refused.ok && refused.error).toContain(
      '$1,200.00 already counted in the window, this request adds $600.00',
    );
    const next = await e.create(requester, 'withdraw', wallet.id, withdrawal('1'));
    expect(!next.ok && next.error).toContain('$1,200.00 already counted in the window');
    // Without the contract transfer, the withdrawal fits.
    await e.cancel(requester, write.data.id);
    expect((await e.create(requester, 'withdraw', wallet.id, withdrawal('1'))).ok).toBe(true);
  });

  it('an undecodable write needs the highest quorum, and the review says why', async () => {
    const e = engine();
    const mint = parseAbi(['function mint(address to, uint256 amount)'])[0] as AbiFunction;
    const unknown = writeOf({
      address: usdcAddress(),
      method: 'mint',
      abi: [mint],
      parameters: [SPENDER, '1'],
    });
    // The default policy: one approval, one more above $10,000. Unknown: the count above the threshold.
    const created = await e.create(requester, 'contractWrite', wallet.id, unknown);
    if (!created.ok) throw new Error(created.error);
    expect(created.data.requiredApprovals).toBe(2);
    const { review, row } = await reviewOf(created.data.id);
    expect(row?.amountUsd).toBeNull();
    expect(review.totalUsd).toBeNull();
    expect(review.calls[0]).toMatchObject({
      decoded: null,
      usd: null,
      undecodable: 'unknown function 0x40c10f19',
    });
    expect(review.warnings).toContain(
      'This call could not be decoded (unknown function 0x40c10f19); it needs 2 approvals.',
    );

    // Without a threshold there is no "above": the most any kind's policy asks (a swap above its own, 4).
    await e.updatePolicy(requester, 'contractWrite', {
      approvals: 1,
      thresholdUsd: null,
      expirySeconds: 3600,
    });
    await e.updatePolicy(requester, 'swap', { approvals: 3, thresholdUsd: 5000, expirySeconds: 3600 });
    const strictest = await e.create(requester, 'contractWrite', wallet.id, unknown);
    expect(strictest.ok && strictest.data.requiredApprovals).toBe(4);
    // And a decodable, priced call under that policy needs its own count.
    const plain = await e.create(requester, 'contractWrite', wallet.id, writeOf(transfer(recipient(), '1')));
    expect(plain.ok && plain.data.requiredApprovals).toBe(1);
    await database.db.delete(approvalPolicies);

    // A token the console cannot price (not a wallet asset), and an unlimited approval: the highest too.
    const unpriced = await e.create(
      requester,
      'contractWrite',
      wallet.id,
      writeOf({ ...transfer(SPENDER, '5'), address: '0x00000000000000000000000000000000000000dd' }),
    );
    if (!unpriced.ok) throw new Error(unpriced.error);
    expect(unpriced.data.requiredApprovals).toBe(2);
    expect((await reviewOf(unpriced.data.id)).review.warnings[0]).toMatch(
      /^This call could not be priced \(0x0+dD? is not an asset of this wallet.*\); it needs 2 approvals\.$/i,
    );
    const unlimited = await e.create(
      requester,
      'contractWrite',
      wallet.id,
      writeOf({
        address: usdcAddress(),
        method: 'approve',
        abi: [fn('approve')],
        parameters: [SPENDER, maxUint256.toString()],
      }),
    );
    if (!unlimited.ok) throw new Error(unlimited.error);
    expect(unlimited.data.requiredApprovals).toBe(2);
    const unlimitedReview = (await reviewOf(unlimited.data.id)).review;
    expect(unlimitedReview.calls[0]?.decoded).toMatchObject({ amount: 'unlimited USDC', unlimited: true });
    expect(unlimitedReview.warnings[0]).toBe(
      `Unlimited token approval: ${getAddress(SPENDER)} may move every USDC this address holds, now and later; it needs 2 approvals.`,
    );
  });
});
