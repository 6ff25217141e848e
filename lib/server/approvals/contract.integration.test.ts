// Contract write and sign-only requests through the approval engine against the embedded sandbox: the
// two-factor code is needed at submission, a wrong one leaves the request resubmittable, and the code is
// never written anywhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type AbiFunction, erc20Abi, maxUint256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import { users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
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
          parameters: [SPENDER, '10000000000000000000000'],
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
