// The native balance a withdrawal's review shows and warns on: the source pays the amounts it sends and, unless
// it is a gasless child address (whose fees the master wallet pays), the network fees.
import { describe, expect, it, vi } from 'vitest';
import { CustodyError } from '@/lib/custody';
import type { ReviewContext } from '../types';
import { itemReferences, nativeAfterSending, withdrawalFee } from './withdraw';

const base = { symbol: 'ETH', decimals: 18, nativeSpent: [] as string[] };

describe('nativeAfterSending', () => {
  it('charges the fee to a paying source, whose balance the estimate gives', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0.5',
      payerBalance: '0.5',
      gasless: false,
      feeTotal: '0.01',
      nativeSpent: ['0.2'],
    });
    expect(out).toEqual({ before: '0.5', after: '0.29', warnings: [] });
  });

  it('warns when a paying source cannot cover the amounts and the fees', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '0',
      gasless: false,
      feeTotal: '0.01',
    });
    expect(out.after).toBe('-0.01');
    expect(out.warnings).toEqual(['Not enough ETH for the amounts and network fees.']);
  });

  it("does not charge a gasless child address's fees to it: a token withdrawal with no native coin is fine", () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '3.2',
      gasless: true,
      feeTotal: '0.01',
    });
    expect(out).toEqual({ before: '0', after: '0', warnings: [] });
  });

  it('warns when the master wallet cannot pay a gasless address’s fees, naming the master wallet', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '0.001',
      gasless: true,
      feeTotal: '0.01',
    });
    expect(out.warnings).toEqual([
      "The master wallet pays this gasless address's network fees and holds 0.001 ETH, less than the 0.01 ETH they need.",
    ]);
  });

  it('keeps the source balance when no estimate came back', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '1',
      payerBalance: null,
      gasless: false,
      feeTotal: null,
      nativeSpent: ['0.4'],
    });
    expect(out).toEqual({ before: '1', after: '0.6', warnings: [] });
  });
});

describe('withdrawalFee', () => {
  const items = [{ assetId: 'usdc', address: '0x00000000000000000000000000000000000000bb', amount: '5' }];
  const estimate = (nativeBalance: string) => ({
    form: 'single' as const,
    data: { networkFee: '0.0004', nativeBalance, nativeBalanceInUSD: '0' },
    message: 'Network fee fetched successfully',
  });
  function fakeClient(child: () => Promise<unknown>) {
    const withdraw = {
      networkFee: vi.fn(async () => estimate('9')),
      networkFeeFromAddress: vi.fn(child),
    };
    return { client: { withdraw } as unknown as ReviewContext['client'], withdraw };
  }

  it("asks a child address's own estimate, whose native balance is the payer's", async () => {
    const { client, withdraw } = fakeClient(async () => estimate('0.2'));
    const fee = await withdrawalFee(client, 'w1', 'a1', items);
    expect(fee).toMatchObject({ payerKnown: true, data: { nativeBalance: '0.2' } });
    expect(withdraw.networkFeeFromAddress).toHaveBeenCalledWith(
      { walletId: 'w1', addressId: 'a1' },
      { assets: [{ id: 'usdc', address: items[0]!.address, amount: '5' }] },
    );
    expect(withdraw.networkFee).not.toHaveBeenCalled();
  });

  it("falls back to #15 where the service lacks the child form, whose balance is then not the payer's", async () => {
    const { client, withdraw } = fakeClient(async () => {
      throw new CustodyError({
        kind: 'http',
        status: 404,
        message: 'Cannot POST /v1/wallets/w1/addresses/a1/withdraw/network-fee',
        method: 'POST',
        path: '/x',
      });
    });
    const fee = await withdrawalFee(client, 'w1', 'a1', items);
    expect(fee).toMatchObject({ payerKnown: false, data: { networkFee: '0.0004' } });
    expect(withdraw.networkFee).toHaveBeenCalledOnce();
  });

  it('passes the service\'s own "not found" for the address on, instead of the master wallet\'s estimate', async () => {
    const { client, withdraw } = fakeClient(async () => {
      throw new CustodyError({
        kind: 'http',
        status: 404,
        message: 'Address not found',
        method: 'POST',
        path: '/x',
      });
    });
    await expect(withdrawalFee(client, 'w1', 'a1', items)).rejects.toThrow('Address not found');
    expect(withdraw.networkFee).not.toHaveBeenCalled();
  });

  it("passes any other refusal on: the review shows the service's message", async () => {
    const { client, withdraw } = fakeClient(async () => {
      throw new CustodyError({
        kind: 'http',
        status: 400,
        message: 'Invalid asset',
        method: 'POST',
        path: '/x',
      });
    });
    await expect(withdrawalFee(client, 'w1', 'a1', items)).rejects.toThrow('Invalid asset');
    expect(withdraw.networkFee).not.toHaveBeenCalled();
  });

  it('asks #15 for the master wallet, whose native balance is its own', async () => {
    const { client, withdraw } = fakeClient(async () => estimate('0'));
    expect(await withdrawalFee(client, 'w1', undefined, items)).toMatchObject({ payerKnown: true });
    expect(withdraw.networkFeeFromAddress).not.toHaveBeenCalled();
  });
});

describe('itemReferences', () => {
  it('keeps a typed reference in the review item, beside the upstream reference it becomes', () => {
    expect(itemReferences(' INV-2041 ', 'INV-2041')).toEqual({
      reference: 'INV-2041',
      clientReference: 'INV-2041',
    });
  });

  it('has no typed reference when none was typed: the upstream one is derived from the request', () => {
    expect(itemReferences(undefined, 'req-1-0')).toEqual({ reference: 'req-1-0', clientReference: null });
  });
});
