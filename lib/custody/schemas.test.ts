import { describe, expect, it } from 'vitest';
import {
  autoSettlementRuleInput,
  callItemInput,
  contractCallsBodyInput,
  schemas,
  strictSchemas,
  swapInput,
  typedDataInput,
  withdrawalItemInput,
} from './schemas';
import * as f from './test-fixtures';

const modes = [
  ['loose', schemas],
  ['strict', strictSchemas],
] as const;

describe.each(modes)('%s schemas accept spec-shaped resources', (_mode, s) => {
  it('parses a blockchain with and without isL2', () => {
    expect(s.blockchain.parse(f.blockchain()).isL2).toBe(false);
    const { isL2: _, ...withoutL2 } = f.blockchain();
    expect(s.blockchain.parse(withoutL2).isL2).toBeUndefined();
  });

  it('parses an asset with and without its blockchain', () => {
    expect(s.asset.parse(f.asset()).blockchain?.slug).toBe('ethereum');
    const { blockchain: _, ...bare } = f.asset();
    expect(s.asset.parse(bare).symbol).toBe('USDC');
    expect(s.asset.parse(f.asset({ standard: null })).standard).toBeNull();
  });

  it('parses a full wallet with assets, analytics, configurations, business and credential', () => {
    const wallet = s.wallet.parse(f.wallet());
    expect(wallet.assets[0]?.asset.symbol).toBe('USDC');
    expect(wallet.analytics.currentBalance).toBe(1520.5);
    expect(wallet.configurations?.autoSettlement.rules[0]?.id).toBeUndefined();
    expect(wallet.business.configurations.contact?.email).toBe('ops@acme.example');
    expect(wallet.apiCredential.revokedAt).toBeNull();
    expect(s.wallet.parse(f.wallet({ configurations: null })).configurations).toBeNull();
  });

  it('parses internal and external addresses', () => {
    expect(s.address.parse(f.address()).configurations.aml.status).toBe('success');
    const external = s.address.parse(
      f.address({ type: 'EXTERNAL', derivationPath: null, name: null, metadata: null }),
    );
    expect(external.derivationPath).toBeNull();
    expect(external.name).toBeNull();
  });

  it('parses gasUsed as a number and as a numeric string', () => {
    expect(s.transaction.parse(f.swapTransaction()).gasUsed).toBe(53000);
    expect(s.transaction.parse(f.sweptDeposit()).gasUsed).toBe('21000');
    expect(s.transaction.parse(f.transaction()).gasUsed).toBeNull();
  });

  it('parses a pending withdrawal whose nullable fields are null', () => {
    const tx = s.transaction.parse(f.transaction());
    expect(tx.hash).toBeNull();
    expect(tx.confirmations).toBeNull();
    expect(tx.toWallet).toBeNull();
    expect(tx.wallet.id).toBe(f.WALLET_ID);
    expect(tx.amlScreening).toEqual({});
  });

  it('parses a swept deposit with its child address and AML screening', () => {
    const tx = s.transaction.parse(f.sweptDeposit());
    expect(tx.assetSwept).toBe(true);
    expect(tx.address?.id).toBe(f.ADDRESS_ID);
    expect(tx.amlScreening).toMatchObject({ provider: 'ofac' });
  });

  it('parses a swap with its destination asset, chain and wallet', () => {
    const tx = s.transaction.parse(f.swapTransaction());
    expect(tx.toAsset?.symbol).toBe('USDT');
    expect(tx.toBlockchain?.isL2).toBe(true);
    expect(tx.toWallet?.id).toBe(f.WALLET_ID);
  });

  it('parses signed records: hex for contract sign-only, {r,s,signature,v} for typed data', () => {
    expect(s.contractSignedTransaction.parse(f.contractSignedTransaction()).signedTransaction).toBe(
      f.SIGNED_TX_HEX,
    );
    const typed = s.typedDataSignedTransaction.parse(f.typedDataTransaction());
    expect(typed.signedTransaction.v).toBe(27);
    expect(typed.createdChannel).toBe('api');
    expect(() => s.typedDataSignedTransaction.parse(f.contractSignedTransaction())).toThrow();
    expect(() => s.contractSignedTransaction.parse(f.typedDataTransaction())).toThrow();
  });

  it('parses rules: address-level has an id, wallet-level may not', () => {
    expect(s.autoSettlementRule.parse(f.rule()).source.assets).toEqual(['USDC', 'USDT']);
    const { id: _, ...withoutId } = f.rule();
    expect(() => s.autoSettlementRule.parse(withoutId)).toThrow();
    const config = s.walletAutoSettlement.parse({ isActive: false, name: 'Default', rules: [withoutId] });
    expect(config.rules).toHaveLength(1);
  });

  it('parses a deleted beneficiary and a live one', () => {
    expect(s.beneficiary.parse(f.beneficiary()).deletedAt).toBe('2025-03-01T10:05:00.000Z');
    expect(s.beneficiary.parse(f.beneficiary({ deletedAt: null })).deletedAt).toBeNull();
  });

  it('parses webhook logs with a string response and with a {status, text} response', () => {
    const ok = s.webhookLog.parse(f.webhookLog());
    expect(ok.response).toBe('OK');
    expect(ok.payload.wallet.business?.id).toBe('b0');
    const failed = s.webhookLog.parse(
      f.webhookLog({
        status: 'failed',
        attempts: 3,
        response: { status: 500, text: 'Internal Server Error' },
      }),
    );
    expect(failed.response).toEqual({ status: 500, text: 'Internal Server Error' });
    expect(() => s.webhookLog.parse(f.webhookLog({ response: { status: '500' } }))).toThrow();
  });

  it('parses envelopes, with meta required on paged lists', () => {
    const page = s.pagedEnvelope(s.transaction).parse(f.envelope([f.transaction()], 'ok', f.PAGE_META));
    expect(page.meta.itemsPerPage).toBe(100);
    expect(() => s.pagedEnvelope(s.transaction).parse(f.envelope([f.transaction()]))).toThrow();
    expect(s.envelope(s.contractReadSingle).parse(f.envelope('1000000')).data).toBe('1000000');
  });

  it('parses batch results, with error items as open objects', () => {
    const signed = s.withdrawSignResult.parse({
      success: [{ id: f.TX_ID, hash: '0xabc', signedTransaction: f.SIGNED_TX_HEX }],
      errors: [{ index: 1, message: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' }],
    });
    expect(signed.errors[0]).toEqual({
      index: 1,
      message: 'Insufficient balance',
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(() => s.withdrawSignResult.parse({ success: [], errors: ['boom'] })).toThrow();
  });

  it('parses swap quotes and fee estimates with and without the fields newer answers add', () => {
    const quote = {
      fromAssetId: f.TX_ID,
      toAssetId: f.TX_ID,
      amount: '100',
      toAmount: '99.7',
      minAmount: '99.2',
      rate: '0.997',
      slippage: '0.5',
      networkFee: '0.0003',
      expiresAt: '2026-01-01T00:00:00.000Z',
    };
    expect(s.swapQuote.parse(quote)).toEqual(quote);
    const newer = {
      ...quote,
      impact: '0.3',
      impactInUSD: '0.3',
      nativeBalance: '1.5',
      nativeBalanceInUSD: '4500',
      transactionFee: '0',
    };
    expect(s.swapQuote.parse(newer)).toEqual(newer);
    const fee = { nativeBalance: '1', nativeBalanceInUSD: '3000', networkFee: '0.00013' };
    expect(s.withdrawNetworkFeeSingle.parse(fee)).toEqual(fee);
    const newerFee = { ...fee, networkFeeInUSD: '0.39', estimatedArrivalTime: 30 };
    expect(s.withdrawNetworkFeeSingle.parse(newerFee)).toEqual(newerFee);
    expect(() => s.withdrawNetworkFeeSingle.parse({ ...fee, estimatedArrivalTime: '30' })).toThrow();
  });
});

describe('single or batch form is told from the shape of data', () => {
  const batchWrite = {
    success: [{ id: f.TX_ID, hash: null, status: 'PENDING', reference: 'r1' }],
    errors: [{ index: 1, message: 'execution reverted' }],
  };

  it.each(modes)('contract write (%s)', (_mode, s) => {
    expect(s.contractWriteData.parse(f.transaction({ type: 'CUSTOM_SMART_CONTRACT' })).form).toBe('single');
    const batch = s.contractWriteData.parse(batchWrite);
    expect(batch).toEqual({ form: 'batch', data: batchWrite });
  });

  it('contract read: a string is single, {success, errors} is batch', () => {
    expect(schemas.contractReadData.parse('42')).toEqual({ form: 'single', data: '42' });
    const batch = { success: [{ index: 0, method: 'balanceOf', data: '42' }], errors: [] };
    expect(schemas.contractReadData.parse(batch)).toEqual({ form: 'batch', data: batch });
  });

  it('contract sign and both fee estimates', () => {
    expect(schemas.contractSignData.parse(f.contractSignedTransaction()).form).toBe('single');
    expect(
      schemas.contractSignData.parse({
        success: [{ index: 0, method: 'approve', signedTransaction: f.SIGNED_TX_HEX }],
        errors: [],
      }).form,
    ).toBe('batch');
    expect(schemas.contractNetworkFeeData.parse({ balance: '1.2', fee: '0.0001' }).form).toBe('single');
    expect(
      strictSchemas.contractNetworkFeeData.parse({
        fees: [
          {
            index: 0,
            method: 'transfer',
            fee: '0.0001',
            networkFee: '0.0001',
            networkFeeInUSD: '0.3',
            nativeBalance: '1.2',
            nativeBalanceInUSD: '3600',
            estimatedArrivalTime: 30,
            transactionFee: '0',
          },
        ],
        totalFee: '0.0001',
        estimatedArrivalTime: 30,
        errors: [],
      }).form,
    ).toBe('batch');
    expect(
      schemas.withdrawNetworkFeeData.parse({
        nativeBalance: '1',
        nativeBalanceInUSD: '3000',
        networkFee: '0.01',
      }).form,
    ).toBe('single');
  });

  it('reports failures inside the chosen form, with its path', () => {
    const result = schemas
      .envelope(schemas.contractWriteData)
      .safeParse(f.envelope({ success: [{ id: 1 }], errors: [] }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['data', 'success', 0, 'id']);
  });
});

describe('loose mode passes unknown fields through; strict mode rejects them', () => {
  const cases: Array<[string, keyof typeof schemas & string, () => Record<string, unknown>]> = [
    ['blockchain', 'blockchain', () => f.blockchain()],
    ['asset', 'asset', () => f.asset()],
    ['address', 'address', () => f.address()],
    ['wallet', 'wallet', () => f.wallet()],
    ['transaction', 'transaction', () => f.transaction()],
    ['rule', 'autoSettlementRule', () => f.rule()],
    ['beneficiary', 'beneficiary', () => f.beneficiary()],
    ['webhook log', 'webhookLog', () => f.webhookLog()],
  ];

  it.each(cases)('%s', (_name, key, make) => {
    const withExtra = { ...make(), futureField: 'x' };
    const loose = schemas[key] as unknown as { parse(v: unknown): Record<string, unknown> };
    const strict = strictSchemas[key] as unknown as { safeParse(v: unknown): { success: boolean } };
    expect(loose.parse(withExtra).futureField).toBe('x');
    expect(strict.safeParse(withExtra).success).toBe(false);
    expect(strict.safeParse(make()).success).toBe(true);
  });

  it('rejects unknown keys in nested strict objects too', () => {
    const tx = f.transaction({ asset: { ...f.asset(), extra: true } });
    expect(strictSchemas.transaction.safeParse(tx).success).toBe(false);
    expect(schemas.transaction.parse(tx).asset).toMatchObject({ extra: true });
  });

  it('rejects unknown keys on the envelope in strict mode', () => {
    const body = { ...f.envelope(f.beneficiary()), extra: 1 };
    expect(strictSchemas.envelope(strictSchemas.beneficiary).safeParse(body).success).toBe(false);
    expect(schemas.envelope(schemas.beneficiary).safeParse(body).success).toBe(true);
  });

  it('keeps open objects open in strict mode (business, metadata, batch errors)', () => {
    const wallet = strictSchemas.wallet.parse(f.wallet());
    expect(wallet.business.walletSeedPhrase).toBeTypeOf('string');
    expect(wallet.business.user.firstName).toBe('Ada');
    const tx = strictSchemas.transaction.parse(f.transaction({ metadata: { anything: { nested: [1] } } }));
    expect(tx.metadata).toEqual({ anything: { nested: [1] } });
  });

  it('checks formats only in strict mode', () => {
    const badTime = f.transaction({ createdAt: '1 March 2025' });
    expect(schemas.transaction.safeParse(badTime).success).toBe(true);
    expect(strictSchemas.transaction.safeParse(badTime).success).toBe(false);
    const badAmount = f.transaction({ amount: '12,50' });
    expect(strictSchemas.transaction.safeParse(badAmount).success).toBe(false);
    const unknownStatus = f.transaction({ status: 'CANCELLED' });
    expect(schemas.transaction.safeParse(unknownStatus).success).toBe(true);
    expect(strictSchemas.transaction.safeParse(unknownStatus).success).toBe(false);
    expect(strictSchemas.transaction.safeParse(f.transaction({ id: 'not-a-uuid' })).success).toBe(false);
  });

  it('still enforces types in loose mode', () => {
    expect(schemas.transaction.safeParse(f.transaction({ confirmed: 'yes' })).success).toBe(false);
    expect(schemas.transaction.safeParse(f.transaction({ gasUsed: true })).success).toBe(false);
    const { reference: _, ...withoutReference } = f.transaction();
    expect(schemas.transaction.safeParse(withoutReference).success).toBe(false);
  });
});

describe('request body schemas', () => {
  it('accepts a withdrawal item and rejects zero or malformed amounts', () => {
    const item = { id: f.ASSET_ID, address: '0xabc', amount: '10.25', reference: 'r1' };
    expect(withdrawalItemInput.parse(item)).toEqual(item);
    expect(withdrawalItemInput.safeParse({ ...item, amount: '0.000' }).success).toBe(false);
    expect(withdrawalItemInput.safeParse({ ...item, amount: '1e3' }).success).toBe(false);
    expect(withdrawalItemInput.safeParse({ ...item, address: '  ' }).success).toBe(false);
  });

  it('caps contract calls at 20 and needs at least one', () => {
    const call = callItemInput.parse({
      address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
      method: 'balanceOf',
      abi: [{ type: 'function', name: 'balanceOf', inputs: [{ name: 'a', type: 'address' }], outputs: [] }],
      parameters: ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'],
    });
    expect(contractCallsBodyInput.safeParse({ calls: [call] }).success).toBe(true);
    expect(contractCallsBodyInput.safeParse({ calls: [] }).success).toBe(false);
    expect(contractCallsBodyInput.safeParse({ calls: Array(21).fill(call) }).success).toBe(false);
  });

  it('rejects a rule whose minimum exceeds its maximum, comparing decimals exactly', () => {
    const { id: _i, createdAt: _c, updatedAt: _u, ...body } = f.rule();
    expect(autoSettlementRuleInput.safeParse(body).success).toBe(true);
    const inverted = { ...body, source: { ...body.source, minAmount: '100.5', maxAmount: '100.25' } };
    const result = autoSettlementRuleInput.safeParse(inverted);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['source', 'maxAmount']);
    const equal = { ...body, source: { ...body.source, minAmount: '100.50', maxAmount: '100.5' } };
    expect(autoSettlementRuleInput.safeParse(equal).success).toBe(true);
    const wide = { ...body, source: { ...body.source, minAmount: '9', maxAmount: '10' } };
    expect(autoSettlementRuleInput.safeParse(wide).success).toBe(true);
  });

  it('validates swap order and keeps extra EIP-712 domain fields', () => {
    const swap = { amount: '5', fromAssetId: 'a', toAssetId: 'b', order: 'FASTEST' };
    expect(swapInput.safeParse(swap).success).toBe(true);
    expect(swapInput.safeParse({ ...swap, order: 'SLOWEST' }).success).toBe(false);
    const typed = typedDataInput.parse({
      domain: { chainId: 1, name: 'USD Coin', verifyingContract: '0x1', version: '2', salt: '0x01' },
      message: { owner: '0x2', value: '1000000' },
      types: { Permit: [{ name: 'owner', type: 'address' }] },
    });
    expect(typed.domain.salt).toBe('0x01');
  });
});
