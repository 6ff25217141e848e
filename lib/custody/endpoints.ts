// Every endpoint the console's custody client calls and every endpoint the sandbox serves, each with where
// Blockradar documents it (or that it does not). Plain data: endpoints.test.ts holds the client and the sandbox
// router to it, so a path that drifts from the documented one fails a test instead of failing in production.

/** Written where Blockradar's API reference has no page for the endpoint: the console must live without it. */
const NOT_DOCUMENTED = 'extension: not documented';

const REFERENCE = 'https://docs.blockradar.co/api-reference';

export interface CustodyEndpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path template, parameters in braces: `/v1/wallets/{walletId}/addresses/whitelist/{addressId}`. */
  path: string;
  /** Its number in shared/spec/custody-api.md (#1 to #23); absent for endpoints beyond the spec. */
  spec?: number;
  /**
   * The Blockradar API reference page that documents it (a URL), the reference's section and page title where
   * the page's address was not confirmed, or `extension: not documented`.
   */
  docs: string;
  /** The custody client's method that calls it (`group.method`), if the console calls it. */
  client?: string;
  /** Whether the embedded sandbox serves it. */
  sandbox: boolean;
  /** Anything a person pointing the console at the real service should know. */
  note?: string;
}

const section = (title: string) => `Blockradar API reference › ${title}`;

export const CUSTODY_ENDPOINTS: readonly CustodyEndpoint[] = [
  // The spec's 23: the console needs every one of them.
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/transactions/retry',
    spec: 1,
    docs: section('Transactions › Retry transaction'),
    client: 'transactions.retry',
    sandbox: true,
    note: "Blockradar's current overview lists retry as POST /v1/wallets/{walletId}/transactions/{transactionId}/retry.",
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/transactions/webhooks/resend',
    spec: 2,
    docs: section('Transactions › Resend webhook'),
    client: 'transactions.resendWebhook',
    sandbox: true,
    note: "Blockradar's current overview lists POST /v1/wallets/{walletId}/transactions/{transactionId}/resend-webhook.",
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/transactions',
    spec: 3,
    docs: section('Address Operations › Get transactions'),
    client: 'addresses.listTransactions',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}',
    spec: 4,
    docs: section('Wallet Management › Get Wallet'),
    client: 'wallets.get',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses/{addressId}',
    spec: 5,
    docs: `${REFERENCE}/addresses/get-address`,
    client: 'addresses.get',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/whitelist',
    spec: 6,
    docs: `${REFERENCE}/addresses/whitelist-address`,
    client: 'addresses.whitelist',
    sandbox: true,
  },
  {
    method: 'DELETE',
    path: '/v1/wallets/{walletId}/beneficiaries/{id}',
    spec: 7,
    docs: `${REFERENCE}/beneficiaries/delete`,
    client: 'beneficiaries.delete',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/auto-settlements',
    spec: 8,
    docs: section('Auto-Settlements › Get Auto-Settlement'),
    client: 'autoSettlement.get',
    sandbox: true,
  },
  {
    method: 'PATCH',
    path: '/v1/wallets/{walletId}/auto-settlements',
    spec: 9,
    docs: section('Auto-Settlements › Update Auto-Settlement'),
    client: 'autoSettlement.update',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/auto-settlements/rules',
    spec: 10,
    docs: section('Address Operations › Create Auto-Settlement Rule'),
    client: 'addressRules.create',
    sandbox: true,
  },
  {
    method: 'PATCH',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/auto-settlements/rules/{id}',
    spec: 11,
    docs: section('Address Operations › Update Auto-Settlement Rule'),
    client: 'addressRules.update',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/withdraw',
    spec: 12,
    docs: section('Withdrawals › Withdraw'),
    client: 'withdraw.fromMaster',
    sandbox: true,
    note: "Several items answer with the first item's Transaction (the spec); the console reads the others from the `batch` extension field, or finds them by their references where it is missing.",
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/withdraw',
    spec: 13,
    docs: section('Address Operations › Withdraw'),
    client: 'withdraw.fromAddress',
    note: "As #12: several items answer with the first item's Transaction, every item's under the `batch` extension field.",
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/withdraw/sign',
    spec: 14,
    docs: section('Withdrawals › Withdraw Sign-Only'),
    client: 'withdraw.sign',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/withdraw/network-fee',
    spec: 15,
    docs: section('Withdrawals › Withdraw Network Fee'),
    client: 'withdraw.networkFee',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/contracts/write',
    spec: 16,
    docs: section('Address Operations › Custom Smart Contract Write'),
    client: 'contracts.write',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/contracts/write/sign',
    spec: 17,
    docs: section('Address Operations › Custom Smart Contract Write Sign-Only'),
    client: 'contracts.sign',
    sandbox: true,
    note: "Blockradar's current overview lists .../contracts/write/sign-only.",
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/contracts/read',
    spec: 18,
    docs: `${REFERENCE}/smart-contract/master-wallet-read`,
    client: 'contracts.read',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/contracts/network-fee',
    spec: 19,
    docs: section('Custom Smart Contracts › Network Fee'),
    client: 'contracts.networkFee',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/swaps/execute',
    spec: 20,
    docs: section('Address Operations › Swap Execute'),
    client: 'swaps.execute',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/signing/typed-data',
    spec: 21,
    docs: section('Signing › Sign typed data (child address)'),
    client: 'signing.typedData',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/webhooks',
    spec: 22,
    docs: section('Wallet Management › Webhooks Logs'),
    client: 'webhooks.list',
    sandbox: true,
    note: "Blockradar's current overview lists GET /v1/wallets/{walletId}/transactions/webhook-logs.",
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/transactions/{id}/webhooks',
    spec: 23,
    docs: section('Transactions › Webhook logs of a transaction'),
    client: 'webhooks.forTransaction',
    sandbox: true,
  },

  // Beyond the spec: each is optional, and the console works without it (capabilities, fallbacks).
  {
    method: 'DELETE',
    path: '/v1/wallets/{walletId}/addresses/whitelist/{addressId}',
    docs: `${REFERENCE}/addresses/unwhitelist-address`,
    client: 'addresses.removeWhitelisted',
    sandbox: true,
  },
  {
    method: 'PATCH',
    path: '/v1/wallets/{walletId}',
    docs: section('Wallet Management › Update Wallet'),
    sandbox: true,
    note: 'Name and description; the console does not rename wallets.',
  },
  {
    method: 'PATCH',
    path: '/v1/wallets/{walletId}/addresses/{addressId}',
    docs: section('Address Operations › Update Address'),
    sandbox: true,
    note: 'Name, metadata, disableAutoSweep and enableGaslessWithdraw; the console does not edit addresses.',
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses',
    docs: `${REFERENCE}/addresses/get-addresses`,
    client: 'wallets.listAddresses',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses',
    docs: `${REFERENCE}/addresses/generate-address`,
    client: 'addresses.create',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/balances',
    docs: `${REFERENCE}/addresses/get-balances`,
    client: 'addresses.balances',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/balances',
    docs: section('Wallet Management › Get Balances'),
    client: 'wallets.balances',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/balance',
    docs: section('Wallet Management › Get Balance'),
    sandbox: true,
    note: 'One asset (`?assetId=`); the console reads every balance at once instead.',
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/balance',
    docs: `${REFERENCE}/addresses/get-balance`,
    sandbox: true,
    note: 'One asset (`?assetId=`); the console reads every balance at once instead.',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/withdraw/sign',
    docs: `${REFERENCE}/withdraw/child-address-sign-only`,
    sandbox: true,
    note: 'The console signs withdrawals from the master wallet only (#14).',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/withdraw/network-fee',
    docs: `${REFERENCE}/withdraw/child-address-network-fee`,
    client: 'withdraw.networkFeeFromAddress',
    sandbox: true,
    note: "A child address's withdrawals and payouts are estimated here; it answers with the gas payer's native balance (the master wallet's for a gasless address).",
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/transactions',
    docs: section('Transactions › Get Transactions'),
    client: 'wallets.listTransactions',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/transactions/{id}',
    docs: section('Transactions › Get Transaction'),
    client: 'wallets.getTransaction',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/auto-settlements/rules',
    docs: section('Address Operations › Get all Auto-Settlement Rules'),
    client: 'addressRules.list',
    sandbox: true,
  },
  {
    method: 'GET',
    path: '/v1/wallets/{walletId}/beneficiaries',
    docs: `${REFERENCE}/beneficiaries/get-all`,
    client: 'beneficiaries.list',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/swaps/quote',
    docs: section('Address Operations › Get Swap Quote'),
    client: 'swaps.quote',
    sandbox: true,
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/swaps/quote',
    docs: `${REFERENCE}/swap/master-wallet-get-quote`,
    sandbox: true,
    note: 'The console swaps from child addresses only (#20).',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/swaps/execute',
    docs: `${REFERENCE}/swap/master-wallet-execute`,
    sandbox: true,
    note: 'The console swaps from child addresses only (#20).',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/contracts/write',
    docs: `${REFERENCE}/smart-contract/master-wallet-write`,
    sandbox: true,
    note: 'The console writes to contracts from child addresses only (#16).',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/contracts/read',
    docs: `${REFERENCE}/smart-contract/child-address-read`,
    sandbox: true,
    note: 'The console reads contracts through the master wallet (#18).',
  },
  {
    method: 'POST',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/contracts/network-fee',
    docs: `${REFERENCE}/smart-contract/child-address-network-fee`,
    sandbox: true,
    note: "Shows the child address's native balance, which pays for its calls; the console estimates with #19.",
  },
  {
    method: 'GET',
    path: '/v1/assets',
    docs: `${REFERENCE}/miscellaneous/get-assets`,
    sandbox: true,
    note: "Every asset the service supports, with its blockchain; the console reads a wallet's own assets (#4).",
  },
  {
    method: 'GET',
    path: '/v1/blockchains',
    docs: `${REFERENCE}/miscellaneous/get-blockchains`,
    sandbox: true,
    note: "Every blockchain the service supports; the console reads a wallet's chain from the wallet (#4).",
  },
  {
    method: 'GET',
    path: '/v1/assets/rates',
    docs: `${REFERENCE}/miscellaneous/get-rates`,
    sandbox: true,
    note: '`?assets=USDC,ETH&currency=USD`; the console values amounts with the USD figures transactions and balances carry.',
  },
  {
    method: 'DELETE',
    path: '/v1/wallets/{walletId}/addresses/{addressId}/whitelist',
    docs: NOT_DOCUMENTED,
    sandbox: true,
    note: 'The old unwhitelist path, kept by the sandbox as an alias; the console no longer calls it.',
  },

  // The sandbox's own controls (tests and demos), never part of a custody service.
  {
    method: 'POST',
    path: '/control/deposits',
    docs: NOT_DOCUMENTED,
    sandbox: true,
    note: 'Sandbox control.',
  },
  { method: 'GET', path: '/control/faults', docs: NOT_DOCUMENTED, sandbox: true, note: 'Sandbox control.' },
  { method: 'POST', path: '/control/faults', docs: NOT_DOCUMENTED, sandbox: true, note: 'Sandbox control.' },
];
