import { describe, expect, it, vi } from 'vitest';
import { batchCounts, type CustodyClient, createCustodyClient } from './client';
import { CustodyError } from './errors';
import * as f from './test-fixtures';

const API_KEY = 'sk_test_0123456789abcdef';
const BASE = 'http://localhost:3000/sandbox';
const W = f.WALLET_ID;
const A = f.ADDRESS_ID;

function client(respond: Parameters<typeof f.fakeFetch>[0]) {
  const { fetch, calls } = f.fakeFetch(respond);
  const sleep = vi.fn(async (_ms: number) => {});
  const custody = createCustodyClient({ baseUrl: BASE, apiKey: API_KEY, fetch, sleep, retries: 1 });
  return { custody, calls, sleep };
}

const withdrawal = { id: f.ASSET_ID, address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', amount: '10' };
const call = {
  address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
  method: 'balanceOf',
  abi: [{ type: 'function', name: 'balanceOf', inputs: [{ name: 'owner', type: 'address' }] }],
  parameters: ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'],
};
const { id: _ruleId, ...walletLevelRule } = f.rule();
const { createdAt: _c, updatedAt: _u, ...ruleFields } = walletLevelRule;
const ruleBody = { ...ruleFields, order: 'RECOMMENDED' as const };
const typedData = {
  domain: {
    chainId: 11155111,
    name: 'USD Coin',
    verifyingContract: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
    version: '2',
  },
  message: { owner: '0x1', spender: '0x2', value: '1000000', nonce: '0', deadline: '1767225600' },
  types: { Permit: [{ name: 'owner', type: 'address' }] },
};
const page = (item: unknown) => f.envelope([item], 'fetched', f.PAGE_META);

interface EndpointCase {
  name: string;
  invoke: (c: CustodyClient) => Promise<unknown>;
  method: string;
  url: string;
  body?: unknown;
  idempotent: boolean;
  answer: unknown;
}

// Every endpoint of the spec (#1 to #23) and every extension, with the exact request it must produce.
const endpoints: EndpointCase[] = [
  {
    name: '#1 transactions.retry',
    invoke: (c) => c.transactions.retry({ walletId: W, id: f.TX_ID }),
    method: 'POST',
    url: `/v1/wallets/${W}/transactions/retry`,
    body: { id: f.TX_ID },
    idempotent: false,
    answer: f.envelope(f.transaction({ confirmed: true }), 'Transaction retried'),
  },
  {
    name: '#2 transactions.resendWebhook',
    invoke: (c) => c.transactions.resendWebhook({ walletId: W, id: f.TX_ID }),
    method: 'POST',
    url: `/v1/wallets/${W}/transactions/webhooks/resend`,
    body: { id: f.TX_ID },
    idempotent: false,
    answer: f.envelope(f.transaction(), 'Transaction fetched successfully'),
  },
  {
    name: '#3 addresses.listTransactions',
    invoke: (c) =>
      c.addresses.listTransactions({
        walletId: W,
        addressId: A,
        status: 'SUCCESS',
        type: 'DEPOSIT',
        order: 'DESC',
        assets: ['USDC', 'USDT'],
        hash: '0xabc',
        page: 2,
        limit: 50,
      }),
    method: 'GET',
    url: `/v1/wallets/${W}/addresses/${A}/transactions?hash=0xabc&status=SUCCESS&type=DEPOSIT&order=DESC&assets=USDC%2CUSDT&page=2&limit=50`,
    idempotent: true,
    answer: page(f.sweptDeposit()),
  },
  {
    name: '#4 wallets.get',
    invoke: (c) => c.wallets.get({ walletId: W, showPrivateKey: true }),
    method: 'GET',
    url: `/v1/wallets/${W}?showPrivateKey=true`,
    idempotent: true,
    answer: f.envelope(f.wallet(), 'Wallet fetched successfully'),
  },
  {
    name: '#5 addresses.get',
    invoke: (c) => c.addresses.get({ walletId: W, addressId: A }),
    method: 'GET',
    url: `/v1/wallets/${W}/addresses/${A}`,
    idempotent: true,
    answer: f.envelope(f.address(), 'Address fetched successfully'),
  },
  {
    name: '#6 addresses.whitelist',
    invoke: (c) =>
      c.addresses.whitelist({ walletId: W }, { address: '0xfeed', name: 'Exchange', disableAutoSweep: true }),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/whitelist`,
    body: { address: '0xfeed', name: 'Exchange', disableAutoSweep: true },
    idempotent: false,
    answer: f.envelope(
      f.address({ type: 'EXTERNAL', derivationPath: null }),
      'Address whitelisted successfully',
    ),
  },
  {
    name: '#7 beneficiaries.delete',
    invoke: (c) => c.beneficiaries.delete({ walletId: W, id: 'ben-1' }),
    method: 'DELETE',
    url: `/v1/wallets/${W}/beneficiaries/ben-1`,
    idempotent: false,
    answer: f.envelope(f.beneficiary(), 'Beneficiary deleted successfully'),
  },
  {
    name: '#8 autoSettlement.get',
    invoke: (c) => c.autoSettlement.get({ walletId: W }),
    method: 'GET',
    url: `/v1/wallets/${W}/auto-settlements`,
    idempotent: true,
    answer: f.envelope({ isActive: true, name: 'Default', rules: [walletLevelRule] }),
  },
  {
    name: '#9 autoSettlement.update',
    invoke: (c) => c.autoSettlement.update({ walletId: W }, { isActive: false }),
    method: 'PATCH',
    url: `/v1/wallets/${W}/auto-settlements`,
    body: { isActive: false },
    idempotent: true,
    answer: f.envelope(
      { isActive: false, name: 'Default', rules: [] },
      'Auto settlement disabled successfully',
    ),
  },
  {
    name: '#10 addressRules.create',
    invoke: (c) => c.addressRules.create({ walletId: W, addressId: A }, ruleBody),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/auto-settlements/rules`,
    body: ruleBody,
    idempotent: false,
    answer: f.envelope(f.rule(), 'Auto settlement rule created successfully'),
  },
  {
    name: '#11 addressRules.update',
    invoke: (c) => c.addressRules.update({ walletId: W, addressId: A, id: 'rule/1' }, ruleBody),
    method: 'PATCH',
    url: `/v1/wallets/${W}/addresses/${A}/auto-settlements/rules/rule%2F1`,
    body: ruleBody,
    idempotent: true,
    answer: f.envelope(f.rule(), 'Auto settlement rule updated successfully'),
  },
  {
    name: '#12 withdraw.fromMaster',
    invoke: (c) => c.withdraw.fromMaster({ walletId: W }, { assets: [withdrawal] }),
    method: 'POST',
    url: `/v1/wallets/${W}/withdraw`,
    body: { assets: [withdrawal] },
    idempotent: false,
    answer: f.envelope(f.transaction(), 'Withdrawal request initiated successfully'),
  },
  {
    name: '#13 withdraw.fromAddress',
    invoke: (c) => c.withdraw.fromAddress({ walletId: W, addressId: A }, { assets: [withdrawal] }),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/withdraw`,
    body: { assets: [withdrawal] },
    idempotent: false,
    answer: f.envelope(f.transaction({ addressId: A })),
  },
  {
    name: '#14 withdraw.sign',
    invoke: (c) => c.withdraw.sign({ walletId: W }, { assets: [withdrawal] }),
    method: 'POST',
    url: `/v1/wallets/${W}/withdraw/sign`,
    body: { assets: [withdrawal] },
    idempotent: false,
    answer: f.envelope(
      { success: [{ id: f.TX_ID, hash: '0xabc', signedTransaction: f.SIGNED_TX_HEX }], errors: [] },
      'Batch withdrawal signed (1/1 successful)',
    ),
  },
  {
    name: '#15 withdraw.networkFee',
    invoke: (c) => c.withdraw.networkFee({ walletId: W }, { assets: [withdrawal] }),
    method: 'POST',
    url: `/v1/wallets/${W}/withdraw/network-fee`,
    body: { assets: [withdrawal] },
    idempotent: true,
    answer: f.envelope({ nativeBalance: '1.5', nativeBalanceInUSD: '4500', networkFee: '0.0004' }),
  },
  {
    name: 'child form of #15: withdraw.networkFeeFromAddress',
    invoke: (c) => c.withdraw.networkFeeFromAddress({ walletId: W, addressId: A }, { assets: [withdrawal] }),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/withdraw/network-fee`,
    body: { assets: [withdrawal] },
    idempotent: true,
    answer: f.envelope({ nativeBalance: '0.2', nativeBalanceInUSD: '600', networkFee: '0.0004' }),
  },
  {
    name: '#16 contracts.write',
    invoke: (c) => c.contracts.write({ walletId: W, addressId: A }, { calls: [call], code: '123456' }),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/contracts/write`,
    body: { calls: [call], code: '123456' },
    idempotent: false,
    answer: f.envelope(
      f.transaction({ type: 'CUSTOM_SMART_CONTRACT' }),
      'Contract write initiated successfully',
    ),
  },
  {
    name: '#17 contracts.sign',
    invoke: (c) => c.contracts.sign({ walletId: W, addressId: A }, { calls: [call], code: '123456' }),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/contracts/write/sign`,
    body: { calls: [call], code: '123456' },
    idempotent: false,
    answer: f.envelope(f.contractSignedTransaction(), 'Contract write signed successfully'),
  },
  {
    name: '#18 contracts.read',
    invoke: (c) => c.contracts.read({ walletId: W }, { calls: [call] }),
    method: 'POST',
    url: `/v1/wallets/${W}/contracts/read`,
    body: { calls: [call] },
    idempotent: true,
    answer: f.envelope('1000000', 'Contract read successfully'),
  },
  {
    name: '#19 contracts.networkFee',
    invoke: (c) => c.contracts.networkFee({ walletId: W }, { calls: [call] }),
    method: 'POST',
    url: `/v1/wallets/${W}/contracts/network-fee`,
    body: { calls: [call] },
    idempotent: true,
    answer: f.envelope({ balance: '1.5', fee: '0.0002' }, 'Network fee retrieved successfully'),
  },
  {
    name: '#20 swaps.execute',
    invoke: (c) =>
      c.swaps.execute(
        { walletId: W, addressId: A },
        { amount: '25.5', fromAssetId: 'usdc', toAssetId: 'usdt', order: 'CHEAPEST', reference: 'req-1' },
      ),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/swaps/execute`,
    body: { amount: '25.5', fromAssetId: 'usdc', toAssetId: 'usdt', order: 'CHEAPEST', reference: 'req-1' },
    idempotent: false,
    answer: f.envelope(f.swapTransaction(), 'Swap transaction created successfully'),
  },
  {
    name: '#21 signing.typedData',
    invoke: (c) => c.signing.typedData({ walletId: W, addressId: A }, typedData),
    method: 'POST',
    url: `/v1/wallets/${W}/addresses/${A}/signing/typed-data`,
    body: typedData,
    idempotent: false,
    answer: f.envelope(f.typedDataTransaction(), 'Typed data signed successfully'),
  },
  {
    name: '#22 webhooks.list',
    invoke: (c) => c.webhooks.list({ walletId: W, page: 1, limit: 20 }),
    method: 'GET',
    url: `/v1/wallets/${W}/webhooks?page=1&limit=20`,
    idempotent: true,
    answer: page(f.webhookLog()),
  },
  {
    name: '#23 webhooks.forTransaction',
    invoke: (c) => c.webhooks.forTransaction({ walletId: W, transactionId: f.TX_ID }),
    method: 'GET',
    url: `/v1/wallets/${W}/transactions/${f.TX_ID}/webhooks`,
    idempotent: true,
    answer: f.envelope([
      f.webhookLog(),
      f.webhookLog({ status: 'failed', response: { status: 502, text: 'Bad' } }),
    ]),
  },
  {
    name: 'extension wallets.listAddresses',
    invoke: (c) => c.wallets.listAddresses({ walletId: W, search: 'cust 42', type: 'INTERNAL', page: 1 }),
    method: 'GET',
    url: `/v1/wallets/${W}/addresses?page=1&search=cust+42&type=INTERNAL`,
    idempotent: true,
    answer: page(f.address()),
  },
  {
    name: 'extension wallets.listTransactions',
    invoke: (c) =>
      c.wallets.listTransactions({
        walletId: W,
        reference: 'req-7f3a',
        addressId: A,
        status: 'PENDING',
        limit: 10,
      }),
    method: 'GET',
    url: `/v1/wallets/${W}/transactions?status=PENDING&limit=10&reference=req-7f3a&addressId=${A}`,
    idempotent: true,
    answer: page(f.transaction()),
  },
  {
    name: 'extension wallets.getTransaction',
    invoke: (c) => c.wallets.getTransaction({ walletId: W, id: f.TX_ID }),
    method: 'GET',
    url: `/v1/wallets/${W}/transactions/${f.TX_ID}`,
    idempotent: true,
    answer: f.envelope(f.transaction()),
  },
  {
    name: 'extension addressRules.list',
    invoke: (c) => c.addressRules.list({ walletId: W, addressId: A }),
    method: 'GET',
    url: `/v1/wallets/${W}/addresses/${A}/auto-settlements/rules`,
    idempotent: true,
    answer: f.envelope([f.rule()]),
  },
  {
    name: 'extension addresses.removeWhitelisted',
    invoke: (c) => c.addresses.removeWhitelisted({ walletId: W, addressId: A }),
    method: 'DELETE',
    // Blockradar's documented path (Unwhitelist address), not `.../addresses/{addressId}/whitelist`.
    url: `/v1/wallets/${W}/addresses/whitelist/${A}`,
    idempotent: false,
    answer: f.envelope(
      f.address({ type: 'EXTERNAL', isActive: false }),
      'Address unwhitelisted successfully',
    ),
  },
  {
    name: 'extension beneficiaries.list',
    invoke: (c) => c.beneficiaries.list({ walletId: W, limit: 5 }),
    method: 'GET',
    url: `/v1/wallets/${W}/beneficiaries?limit=5`,
    idempotent: true,
    answer: page(f.beneficiary({ deletedAt: null })),
  },
];

describe('endpoints', () => {
  it('covers #1 to #23 and six extensions', () => {
    const numbers = endpoints.map((e) => /^#(\d+)/.exec(e.name)?.[1]).filter(Boolean);
    expect(numbers.map(Number)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(endpoints.filter((e) => e.name.startsWith('extension'))).toHaveLength(6);
  });

  it.each(endpoints)('$name sends the right request and returns the message', async (endpoint) => {
    const { custody, calls } = client(() => f.json(endpoint.answer));
    const result = (await endpoint.invoke(custody)) as { message: string };
    expect(calls).toHaveLength(1);
    const sent = calls[0]!;
    expect(sent.method).toBe(endpoint.method);
    expect(sent.url).toBe(BASE + endpoint.url);
    expect(sent.headers.get('x-api-key')).toBe(API_KEY);
    expect(sent.body === undefined ? undefined : JSON.parse(sent.body)).toEqual(endpoint.body);
    expect(result.message).toBe((endpoint.answer as { message: string }).message);
  });

  it.each(endpoints)('$name is retried on 503 only if idempotent', async (endpoint) => {
    const { custody, calls } = client(() => f.json({ statusCode: 503, message: 'Unavailable' }, 503));
    const error = await endpoint.invoke(custody).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).retryable).toBe(true);
    expect(calls).toHaveLength(endpoint.idempotent ? 2 : 1);
  });
});

describe('results', () => {
  it('returns paged lists with meta', async () => {
    const { custody } = client(() => f.json(page(f.sweptDeposit())));
    const result = await custody.addresses.listTransactions({ walletId: W, addressId: A });
    expect(result.meta.totalPages).toBe(1);
    expect(result.data[0]?.gasUsed).toBe('21000');
  });

  it('returns a single contract write as a transaction', async () => {
    const { custody } = client(() =>
      f.json(f.envelope(f.transaction({ type: 'CUSTOM_SMART_CONTRACT' }), 'ok')),
    );
    const result = await custody.contracts.write({ walletId: W, addressId: A }, { calls: [call] });
    if (result.form !== 'single') throw new Error('expected the single form');
    expect(result.data.type).toBe('CUSTOM_SMART_CONTRACT');
  });

  it('returns a batch contract write with success and errors, without throwing on partial failure', async () => {
    const data = {
      success: [{ id: f.TX_ID, hash: null, status: 'PENDING', reference: 'r-0' }],
      errors: [{ index: 1, message: 'execution reverted: ERC20: insufficient allowance' }],
    };
    const { custody } = client(() => f.json(f.envelope(data, 'Batch contract write initiated successfully')));
    const result = await custody.contracts.write({ walletId: W, addressId: A }, { calls: [call, call] });
    expect(result).toEqual({
      form: 'batch',
      ...data,
      message: 'Batch contract write initiated successfully',
    });
  });

  it('tells the form by shape, not by the number of calls sent', async () => {
    const batch = { success: [{ index: 0, method: 'balanceOf', data: '1' }], errors: [] };
    const { custody } = client(() =>
      f.json(f.envelope(batch, 'Batch contract read completed (1/1 successful)')),
    );
    const result = await custody.contracts.read({ walletId: W }, { calls: [call] });
    expect(result.form).toBe('batch');
    if (result.form === 'batch') expect(result.success[0]?.data).toBe('1');

    const single = client(() => f.json(f.envelope('7')));
    const singleResult = await single.custody.contracts.read({ walletId: W }, { calls: [call, call] });
    expect(singleResult).toEqual({ form: 'single', data: '7', message: 'OK' });
  });

  it('names every item of a withdrawal from the `batch` extension, or the first alone without it', async () => {
    const second = f.transaction({ id: '0d7e5b1c-96a3-4b8e-9a51-1f3c2b7d9e04', reference: 'req-7f3b' });
    const withBatch = client(() =>
      f.json(
        f.envelope(
          { ...f.transaction(), batch: [f.transaction(), second] },
          'Withdrawal request initiated successfully',
        ),
      ),
    );
    const both = await withBatch.custody.withdraw.fromMaster(
      { walletId: W },
      { assets: [withdrawal, withdrawal] },
    );
    expect(both.transactions.map((tx) => tx.id)).toEqual([f.TX_ID, second.id]);
    expect(both.data.id).toBe(f.TX_ID);
    expect(both.data).not.toHaveProperty('batch');

    const plain = client(() =>
      f.json(f.envelope(f.transaction(), 'Withdrawal request initiated successfully')),
    );
    const first = await plain.custody.withdraw.fromAddress(
      { walletId: W, addressId: A },
      { assets: [withdrawal, withdrawal] },
    );
    expect(first.transactions.map((tx) => tx.id)).toEqual([f.TX_ID]);
  });

  it('returns batch fee estimates with totals at the top level', async () => {
    const data = {
      fees: [
        {
          index: 0,
          assetId: f.ASSET_ID,
          address: '0x1',
          amount: '10',
          networkFee: '0.0004',
          transactionFee: '0',
          estimatedArrivalTime: 30,
        },
      ],
      totalNetworkFee: '0.0004',
      totalNetworkFeeInUSD: '1.2',
      totalTransactionFee: '0',
      nativeBalance: '1.5',
      nativeBalanceInUSD: '4500',
      estimatedArrivalTime: 30,
      errors: [{ index: 1, message: 'Invalid address' }],
    };
    const { custody } = client(() => f.json(f.envelope(data, 'Network fee fetched successfully')));
    const result = await custody.withdraw.networkFee({ walletId: W }, { assets: [withdrawal, withdrawal] });
    if (result.form !== 'batch') throw new Error('expected the batch form');
    expect(result.totalNetworkFee).toBe('0.0004');
    expect(result.errors).toHaveLength(1);
  });

  it('keeps form and message from being shadowed by passthrough fields', async () => {
    const data = { success: [], errors: [], form: 'single', message: 'inner' };
    const { custody } = client(() => f.json(f.envelope(data, 'outer')));
    const result = await custody.contracts.sign({ walletId: W, addressId: A }, { calls: [call] });
    expect(result.form).toBe('batch');
    expect(result.message).toBe('outer');
  });

  it('returns a sign-only withdrawal as success and errors', async () => {
    const data = {
      success: [{ id: f.TX_ID, hash: '0xabc', signedTransaction: f.SIGNED_TX_HEX }],
      errors: [{ index: 1, message: 'Insufficient balance' }],
    };
    const { custody } = client(() => f.json(f.envelope(data, 'Batch withdrawal signed (1/2 successful)')));
    const result = await custody.withdraw.sign({ walletId: W }, { assets: [withdrawal, withdrawal] });
    expect(result.success[0]?.signedTransaction).toBe(f.SIGNED_TX_HEX);
    expect(result.errors[0]?.message).toBe('Insufficient balance');
    expect(batchCounts(result.message)).toEqual({ succeeded: 1, total: 2 });
  });

  it('throws a malformed error when a batch item has the wrong shape', async () => {
    const { custody } = client(() => f.json(f.envelope({ success: [{ index: 'x' }], errors: [] })));
    const error = await custody.contracts
      .sign({ walletId: W, addressId: A }, { calls: [call] })
      .catch((e) => e);
    expect(error).toBeInstanceOf(CustodyError);
    expect((error as CustodyError).details?.issues?.[0]?.path).toBe('data.success.0.index');
  });

  it('encodes path parameters', async () => {
    const { custody, calls } = client(() => f.json(f.envelope(f.wallet())));
    await custody.wallets.get({ walletId: '../admin?x=1' });
    expect(calls[0]!.url).toBe(`${BASE}/v1/wallets/..%2Fadmin%3Fx%3D1`);
  });
});

describe('batchCounts', () => {
  it('parses "(N/M successful)"', () => {
    expect(batchCounts('Batch contract read completed (3/5 successful)')).toEqual({ succeeded: 3, total: 5 });
    expect(batchCounts('Batch network fee retrieved ( 0 / 20 successful)')).toEqual({
      succeeded: 0,
      total: 20,
    });
    expect(batchCounts('Contract read successfully')).toBeUndefined();
  });
});
