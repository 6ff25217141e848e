// Gasless withdrawals: a child address created with enableGaslessWithdraw sends its asset while the master
// wallet pays the network fee; without the setting the child pays the gas as before. A withdrawal of several
// items names every item's transaction.
import { formatUnits, getAddress, parseUnits, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictSchemas as S } from '@/lib/custody/schemas';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';
import type { Sandbox, SandboxCredentials } from './index';

type Wallet = SandboxCredentials['wallets'][number];

const RECIPIENT = getAddress('0x00000000000000000000000000000000000000bb');
const MASTER_CANNOT_PAY = /master wallet cannot pay the gas/i;

let t: TestSandbox;

beforeAll(async () => {
  t = await createTestSandbox();
  await t.sandbox.drain();
});

afterAll(async () => {
  await t?.close();
});

async function api(
  wallet: Wallet,
  method: string,
  pathname: string,
  body?: unknown,
  sandbox: Sandbox = t.sandbox,
): Promise<unknown> {
  const res = await sandbox.handle(
    new Request(`${TEST_SANDBOX_BASE_URL}${pathname}`, {
      method,
      headers: {
        'x-api-key': wallet.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const json = await res.json();
  expect(res.status, JSON.stringify(json).slice(0, 400)).toBe(200);
  return json;
}

const native = (wallet: Wallet) => wallet.assets.find((a) => a.address === zeroAddress)!;
const usdc = (wallet: Wallet) => wallet.assets.find((a) => a.symbol === 'USDC')!;

const balancesSchema = z.object({
  data: z.array(z.object({ asset: z.object({ id: z.string() }), balance: z.string() })),
});

/** The balance of one of the wallet's assets, in base units, at the master wallet or at a child address. */
async function balanceOf(
  wallet: Wallet,
  entry: Wallet['assets'][number],
  addressId?: string,
): Promise<bigint> {
  const path = addressId
    ? `/v1/wallets/${wallet.id}/addresses/${addressId}/balances`
    : `/v1/wallets/${wallet.id}/balances`;
  const { data } = balancesSchema.parse(await api(wallet, 'GET', path));
  const row = data.find((b) => b.asset.id === entry.id);
  return parseUnits(row?.balance ?? '0', entry.decimals);
}

async function transaction(wallet: Wallet, id: string) {
  return S.envelope(S.transaction).parse(
    await api(wallet, 'GET', `/v1/wallets/${wallet.id}/transactions/${id}`),
  ).data;
}

/** A new child address (kept from sweeping) holding 25 USDC and no native coin. */
async function childWith25Usdc(wallet: Wallet, enableGaslessWithdraw: boolean) {
  const created = S.envelope(S.address).parse(
    await api(wallet, 'POST', `/v1/wallets/${wallet.id}/addresses`, {
      name: enableGaslessWithdraw ? 'gasless customer' : 'paying customer',
      disableAutoSweep: true,
      enableGaslessWithdraw,
    }),
  ).data;
  await api(wallet, 'POST', '/control/deposits', {
    addressId: created.id,
    assetId: usdc(wallet).id,
    amount: '25',
  });
  await t.sandbox.drain();
  expect(await balanceOf(wallet, usdc(wallet), created.id)).toBe(25_000_000n);
  expect(await balanceOf(wallet, native(wallet), created.id)).toBe(0n);
  return created;
}

async function withdrawFiveUsdc(wallet: Wallet, addressId: string) {
  return S.envelope(S.transaction).parse(
    await api(wallet, 'POST', `/v1/wallets/${wallet.id}/addresses/${addressId}/withdraw`, {
      assets: [{ id: usdc(wallet).id, address: RECIPIENT, amount: '5' }],
    }),
  ).data;
}

describe('enableGaslessWithdraw', () => {
  it('is stored with the address and returned when the address is read, also by another instance', async () => {
    const w = t.credentials.wallets[0]!;
    const created = S.envelope(S.address).parse(
      await api(w, 'POST', `/v1/wallets/${w.id}/addresses`, { enableGaslessWithdraw: true }),
    ).data;
    expect(created.configurations.enableGaslessWithdraw).toBe(true);
    const other = await t.another();
    const read = S.envelope(S.address).parse(
      await api(w, 'GET', `/v1/wallets/${w.id}/addresses/${created.id}`, undefined, other),
    ).data;
    expect(read.configurations.enableGaslessWithdraw).toBe(true);
  });

  it('a gasless child with no native coin withdraws; the master wallet pays the gas', async () => {
    const w = t.credentials.wallets[0]!;
    const child = await childWith25Usdc(w, true);
    const masterNativeBefore = await balanceOf(w, native(w));

    const pending = await withdrawFiveUsdc(w, child.id);
    expect(pending).toMatchObject({ type: 'WITHDRAW', status: 'PENDING', senderAddress: child.address });
    expect(pending.feeMetadata).toEqual({
      gasless: true,
      feePaidBy: 'MASTER_WALLET',
      feePayerAddress: w.address,
    });
    await t.sandbox.drain();

    const settled = await transaction(w, pending.id);
    expect(settled).toMatchObject({ status: 'SUCCESS', confirmed: true, reason: null });
    expect(settled.feeMetadata).toEqual(pending.feeMetadata);
    const fee = parseUnits(settled.gasFee!, 18);
    expect(fee).toBeGreaterThan(0n);
    expect(await balanceOf(w, native(w))).toBe(masterNativeBefore - fee);
    expect(await balanceOf(w, native(w), child.id)).toBe(0n);
    expect(await balanceOf(w, usdc(w), child.id)).toBe(20_000_000n);
  });

  it('a child without the setting, in the same state, still fails for lack of gas', async () => {
    const w = t.credentials.wallets[0]!;
    const child = await childWith25Usdc(w, false);
    const masterNativeBefore = await balanceOf(w, native(w));

    const pending = await withdrawFiveUsdc(w, child.id);
    expect(pending.feeMetadata).toBeNull();
    await t.sandbox.drain();

    const failed = await transaction(w, pending.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toMatch(/^Insufficient native balance for gas/);
    expect(await balanceOf(w, native(w))).toBe(masterNativeBefore);
    expect(await balanceOf(w, usdc(w), child.id)).toBe(25_000_000n);
  });

  it('a gasless withdrawal fails, naming the master wallet, when the master has no native coin', async () => {
    const w = t.credentials.wallets[1]!;
    const child = await childWith25Usdc(w, true);

    // Empty the master's native balance: send all of it but the fee of that very transfer.
    const held = await balanceOf(w, native(w));
    const estimate = S.envelope(S.withdrawNetworkFeeSingle).parse(
      await api(w, 'POST', `/v1/wallets/${w.id}/withdraw/network-fee`, {
        assets: [{ id: native(w).id, address: RECIPIENT, amount: '1' }],
      }),
    ).data;
    const emptying = S.envelope(S.transaction).parse(
      await api(w, 'POST', `/v1/wallets/${w.id}/withdraw`, {
        assets: [
          {
            id: native(w).id,
            address: RECIPIENT,
            amount: formatUnits(held - parseUnits(estimate.networkFee, 18), 18),
          },
        ],
      }),
    ).data;
    await t.sandbox.drain();
    expect((await transaction(w, emptying.id)).status).toBe('SUCCESS');
    expect(await balanceOf(w, native(w))).toBe(0n);

    const pending = await withdrawFiveUsdc(w, child.id);
    await t.sandbox.drain();
    const failed = await transaction(w, pending.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toMatch(MASTER_CANNOT_PAY);
    expect(failed.feeMetadata).toMatchObject({ gasless: true, feePaidBy: 'MASTER_WALLET' });
    expect(await balanceOf(w, usdc(w), child.id)).toBe(25_000_000n);
    expect(await balanceOf(w, native(w), child.id)).toBe(0n);
  });
});

describe('the child-address network fee estimate', () => {
  it("answers with the gas payer's native balance: the master wallet's for a gasless address", async () => {
    const w = t.credentials.wallets[0]!;
    const estimate = async (addressId: string) =>
      S.envelope(S.withdrawNetworkFeeSingle).parse(
        await api(w, 'POST', `/v1/wallets/${w.id}/addresses/${addressId}/withdraw/network-fee`, {
          assets: [{ id: usdc(w).id, address: RECIPIENT, amount: '5' }],
        }),
      ).data;
    const gasless = await childWith25Usdc(w, true);
    const paying = await childWith25Usdc(w, false);
    const masterNative = formatUnits(await balanceOf(w, native(w)), 18);
    expect(Number((await estimate(gasless.id)).networkFee)).toBeGreaterThan(0);
    expect((await estimate(gasless.id)).nativeBalance).toBe(masterNative);
    expect((await estimate(paying.id)).nativeBalance).toBe('0');
  });
});

describe('a withdrawal of several items', () => {
  const withdrawal = S.envelope(S.withdrawal);

  it('from a gasless child address answers with every item: the first as the Transaction, each under batch', async () => {
    const w = t.credentials.wallets[0]!;
    const child = await childWith25Usdc(w, true);
    const stamp = Date.now().toString(36);
    const references = [`batch-${stamp}-a`, `batch-${stamp}-b`, `batch-${stamp}-c`];
    const answer = withdrawal.parse(
      await api(w, 'POST', `/v1/wallets/${w.id}/addresses/${child.id}/withdraw`, {
        assets: references.map((reference, i) => ({
          id: usdc(w).id,
          address: RECIPIENT,
          amount: String(i + 1),
          reference,
        })),
      }),
    );
    expect(answer.message).toBe('Withdrawal request initiated successfully');
    const { batch, ...first } = answer.data;
    expect(batch?.map((tx) => tx.reference)).toEqual(references);
    expect(batch?.map((tx) => tx.amount)).toEqual(['1', '2', '3']);
    expect(new Set(batch?.map((tx) => tx.id)).size).toBe(3);
    expect(first).toEqual(batch?.[0]);
    // Each id is the service's own: read back, it is the same gasless withdrawal.
    for (const tx of batch ?? []) {
      const read = await transaction(w, tx.id);
      expect(read).toMatchObject({ id: tx.id, reference: tx.reference, senderAddress: child.address });
      expect(read.feeMetadata).toMatchObject({ gasless: true, feePaidBy: 'MASTER_WALLET' });
    }
  });

  it('of one item answers with the Transaction alone', async () => {
    const w = t.credentials.wallets[0]!;
    const answer = withdrawal.parse(
      await api(w, 'POST', `/v1/wallets/${w.id}/withdraw`, {
        assets: [{ id: usdc(w).id, address: RECIPIENT, amount: '1' }],
      }),
    );
    expect(answer.data.batch).toBeUndefined();
    expect(answer.data.type).toBe('WITHDRAW');
  });
});
