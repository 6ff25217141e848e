// Spec-shaped answers of the custody API (shared/spec/custody-api.md), for unit tests only.

export const WALLET_ID = '3f1c2a9e-6b1d-4c55-9a7e-1d2b3c4d5e6f';
export const ADDRESS_ID = '8a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
export const TX_ID = 'c0ffee00-1234-4abc-8def-0123456789ab';
export const ASSET_ID = '5e8a7b6c-5d4e-4f3a-9b2c-1d0e9f8a7b6c';
const T1 = '2025-03-01T10:00:00.000Z';
const T2 = '2025-03-01T10:05:00.000Z';

export function blockchain(overrides: Record<string, unknown> = {}) {
  return {
    id: '0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a',
    name: 'Ethereum',
    slug: 'ethereum',
    symbol: 'eth',
    derivationPath: "m/44'/60'/0'/0",
    isActive: true,
    isEvmCompatible: true,
    isL2: false,
    tokenStandard: 'ERC20',
    logoUrl: 'https://assets.example/eth.png',
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

export function asset(overrides: Record<string, unknown> = {}) {
  return {
    id: ASSET_ID,
    address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
    name: 'USD Coin',
    symbol: 'USDC',
    decimals: 6,
    network: 'testnet',
    isActive: true,
    standard: 'ERC20',
    logoUrl: 'https://assets.example/usdc.png',
    blockchain: blockchain(),
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

function aml() {
  return { message: 'Address is not sanctioned', provider: 'ofac', status: 'success' };
}

export function address(overrides: Record<string, unknown> = {}) {
  return {
    id: ADDRESS_ID,
    address: '0x4B0897b0513fdC7C541B6d9D7E929C4e5364D2dB',
    name: 'Customer 42',
    type: 'INTERNAL',
    network: 'testnet',
    isActive: true,
    derivationPath: "m/44'/60'/0'/0/42",
    metadata: { customerId: '42' },
    configurations: {
      aml: aml(),
      disableAutoSweep: true,
      enableGaslessWithdraw: false,
      showPrivateKey: false,
      isActive: true,
    },
    blockchain: blockchain(),
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

export function rule(overrides: Record<string, unknown> = {}) {
  return {
    id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    name: 'USDC to treasury',
    isActive: true,
    order: 'RECOMMENDED',
    slippageTolerance: '0.5',
    source: { assets: ['USDC', 'USDT'], blockchain: 'ethereum', minAmount: '10', maxAmount: '10000' },
    destination: { address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', asset: 'USDC', blockchain: 'base' },
    createdAt: T1,
    updatedAt: T2,
    ...overrides,
  };
}

export function wallet(overrides: Record<string, unknown> = {}) {
  const { id: _ruleId, ...walletRule } = rule();
  return {
    id: WALLET_ID,
    address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    name: 'Treasury',
    description: 'Main treasury wallet',
    network: 'testnet',
    status: 'ACTIVE',
    isActive: true,
    derivationPath: "m/44'/60'/0'/0/0",
    blockchain: blockchain(),
    assets: [
      {
        id: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
        asset: asset(),
        isActive: true,
        createdAt: T1,
        updatedAt: T1,
      },
    ],
    analytics: { currentBalance: 1520.5, numberOfAssets: 1, unsweptBalance: 20 },
    configurations: {
      addresses: { isActive: true, prefunding: { isActive: false, rules: [] } },
      autoSettlement: { isActive: true, rules: [walletRule] },
    },
    business: {
      id: 'b0b0b0b0-1111-4222-8333-444455556666',
      name: 'Acme Payments',
      sector: 'fintech',
      status: 'ACTIVE',
      createdAt: T1,
      updatedAt: T1,
      // Under a name the spec does not give: the strict schema must let it through, redaction removes it.
      walletSeedPhrase: 'test test test test test test test test test test test junk',
      configurations: {
        billing: { ccEmails: [], toEmails: ['billing@acme.example'] },
        contact: { email: 'ops@acme.example' },
        details: { description: 'Payments', website: 'https://acme.example' },
        hideLogoUrlInResponse: false,
        useCustomWebhookSignatureHeader: true,
      },
      user: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@acme.example',
        emailVerified: true,
        twoFactorAuthEnabled: true,
        configurations: { setNewPasswordRequired: false },
      },
    },
    apiCredential: {
      id: 'a1a1a1a1-2222-4333-8444-555566667777',
      type: 'API_KEY',
      status: 'ACTIVE',
      isActive: true,
      key: '<hidden>',
      webhookUrl: 'https://console.example/api/webhooks/custody',
      createdAt: T1,
      updatedAt: T1,
      revokedAt: null,
    },
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

/** A master-wallet withdrawal as #12 answers it: PENDING, unconfirmed, most chain fields still null. */
export function transaction(overrides: Record<string, unknown> = {}) {
  return {
    id: TX_ID,
    reference: 'req-7f3a',
    hash: null,
    type: 'WITHDRAW',
    status: 'PENDING',
    confirmed: false,
    confirmations: null,
    amount: '25.5',
    amountPaid: '25.5',
    amountUSD: '25.5',
    currency: 'USD',
    rate: '1',
    rateUSD: '1',
    toAmount: null,
    toCurrency: null,
    fee: null,
    feeHash: null,
    feeMetadata: null,
    gasFee: null,
    gasPrice: null,
    gasUsed: null,
    blockHash: null,
    blockNumber: null,
    chainId: 11155111,
    network: 'testnet',
    note: 'Payout March',
    reason: null,
    metadata: { requestId: 'req-7f3a' },
    recipientAddress: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    senderAddress: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    tokenAddress: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
    createdAt: T1,
    updatedAt: T1,
    amlScreening: {},
    asset: asset(),
    toAsset: null,
    blockchain: blockchain(),
    toBlockchain: null,
    wallet: { id: WALLET_ID },
    toWallet: null,
    address: null,
    addressId: null,
    assetSwept: null,
    assetSweptAmount: null,
    assetSweptGasFee: null,
    assetSweptAt: null,
    assetSweptHash: null,
    assetSweptRecipientAddress: null,
    assetSweptSenderAddress: null,
    assetSweptResponse: null,
    response: null,
    beneficiary: null,
    ...overrides,
  };
}

/** A deposit after its sweep (deposit.swept.success): chain fields filled, gasUsed as a numeric string. */
export function sweptDeposit() {
  return transaction({
    type: 'DEPOSIT',
    status: 'SUCCESS',
    confirmed: true,
    confirmations: 12,
    hash: '0x5d2f1e3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0',
    gasFee: '0.000042',
    gasPrice: '2.1',
    gasUsed: '21000',
    blockHash: '0xaabbccddeeff00112233445566778899aabbccddeeff00112233445566778899',
    blockNumber: 7412345,
    amlScreening: aml(),
    address: address(),
    addressId: ADDRESS_ID,
    assetSwept: true,
    assetSweptAmount: '25.5',
    assetSweptGasFee: '0.00003',
    assetSweptAt: T2,
    assetSweptHash: '0x11aa22bb33cc44dd55ee66ff778899001122334455667788990011223344aabb',
    assetSweptRecipientAddress: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    assetSweptSenderAddress: '0x4B0897b0513fdC7C541B6d9D7E929C4e5364D2dB',
    reason: 'Swept successfully',
  });
}

export function swapTransaction() {
  return transaction({
    type: 'SWAP',
    rate: '0.9998',
    toAmount: '25.49',
    toCurrency: 'USDT',
    toAsset: asset({ id: '7c6b5a4d-3e2f-4a1b-8c0d-9e8f7a6b5c4d', symbol: 'USDT', name: 'Tether USD' }),
    toBlockchain: blockchain({
      id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
      name: 'Base',
      slug: 'base',
      isL2: true,
    }),
    toWallet: { id: WALLET_ID },
    gasUsed: 53000,
  });
}

export const SIGNED_TX_HEX = '0x02f8b08301e240808459682f0085012a05f2008301117094';

export function contractSignedTransaction() {
  return transaction({
    type: 'SIGNED',
    status: 'SUCCESS',
    confirmed: true,
    signedTransaction: SIGNED_TX_HEX,
    reason: '{"method":"approve","address":"0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"}',
  });
}

export function typedDataTransaction() {
  return transaction({
    type: 'SIGNED',
    status: 'SUCCESS',
    confirmed: true,
    createdChannel: 'api',
    signedTransaction: {
      r: '0x8f0c1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7',
      s: '0x1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff001',
      signature: '0x8f0c1a2b3c4d5e6f1b2c3d4e5f60718293a4b5c6d7e8f901122334455667788991b',
      v: 27,
    },
  });
}

export function beneficiary(overrides: Record<string, unknown> = {}) {
  return {
    id: 'e1e2e3e4-f5f6-4a7b-8c9d-0e1f2a3b4c5d',
    address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    name: 'Supplier Ltd',
    isActive: true,
    isDefault: false,
    isSettlement: false,
    isWhitelisted: true,
    settlementFrequency: 'WEEKLY',
    createdAt: T1,
    updatedAt: T2,
    deletedAt: T2,
    ...overrides,
  };
}

export function webhookLog(overrides: Record<string, unknown> = {}) {
  return {
    id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
    event: 'withdraw.success',
    url: 'https://console.example/api/webhooks/custody',
    attempts: 1,
    status: 'success',
    response: 'OK',
    reference: TX_ID,
    payload: transaction({
      status: 'SUCCESS',
      confirmed: true,
      wallet: { id: WALLET_ID, business: { id: 'b0' } },
    }),
    createdAt: T1,
    updatedAt: T1,
    ...overrides,
  };
}

export const PAGE_META = { currentPage: 1, itemCount: 1, itemsPerPage: 100, totalItems: 1, totalPages: 1 };

export function envelope(data: unknown, message = 'OK', meta?: typeof PAGE_META) {
  return meta === undefined ? { data, message, statusCode: 200 } : { data, message, statusCode: 200, meta };
}

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
  init: RequestInit;
}

/** A fetch that records each call and answers with `respond` (the network edge, faked). */
export function fakeFetch(respond: (call: RecordedCall, index: number) => Response | Promise<Response>) {
  const calls: RecordedCall[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const call: RecordedCall = {
      url: input,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
      init,
    };
    calls.push(call);
    return respond(call, calls.length - 1);
  };
  return { fetch, calls };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
