// The extension endpoints: what the real service offers beyond the spec's 23. A service with the spec alone
// answers them as unknown paths, which the sandbox's spec-only mode and the test fault proxy reproduce.
// Plain data without `server-only`, so test tooling outside the server build can share it.

/** Method and pattern of every extension route, as the sandbox router spells them. */
const EXTENSION_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; pattern: string }> = [
  { method: 'GET', pattern: '/v1/wallets/:walletId/addresses' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses' },
  // Unwhitelisting: Blockradar documents it, but it is not among the spec's 23. The second path is the old alias.
  { method: 'DELETE', pattern: '/v1/wallets/:walletId/addresses/whitelist/:addressId' },
  { method: 'DELETE', pattern: '/v1/wallets/:walletId/addresses/:addressId/whitelist' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses/:addressId/swaps/quote' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/transactions' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/transactions/:id' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/beneficiaries' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/balances' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/addresses/:addressId/balances' },
  // Documented by Blockradar beyond the spec's 23: one asset's balance, updates, and the master or child forms
  // of operations the spec shows for one side only.
  { method: 'GET', pattern: '/v1/wallets/:walletId/balance' },
  { method: 'GET', pattern: '/v1/wallets/:walletId/addresses/:addressId/balance' },
  { method: 'PATCH', pattern: '/v1/wallets/:walletId' },
  { method: 'PATCH', pattern: '/v1/wallets/:walletId/addresses/:addressId' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw/sign' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw/network-fee' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/swaps/quote' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/swaps/execute' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/contracts/write' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/read' },
  { method: 'POST', pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/network-fee' },
  // Blockradar's reference data (Miscellaneous): supported assets, blockchains and rates.
  { method: 'GET', pattern: '/v1/assets' },
  { method: 'GET', pattern: '/v1/blockchains' },
  { method: 'GET', pattern: '/v1/assets/rates' },
];

export const EXTENSION_ROUTE_KEYS: ReadonlySet<string> = new Set(
  EXTENSION_ROUTES.map((r) => `${r.method} ${r.pattern}`),
);

/** One regular expression per extension route, matching a path relative to the API root (no query). */
const EXTENSION_PATH_PATTERNS: ReadonlyArray<{ method: string; pattern: RegExp }> = EXTENSION_ROUTES.map(
  (r) => ({
    method: r.method,
    pattern: new RegExp(`^${r.pattern.replace(/:\w+/g, '[^/]+')}/?$`),
  }),
);

/** Whether a request is for an extension endpoint; `path` is relative to the API root (`/v1/...`). */
export function isExtensionRequest(method: string, path: string): boolean {
  const verb = method.toUpperCase();
  // Spec routes that share a shape with an extension (e.g. #4 `/v1/wallets/:walletId` is shorter; #6
  // `/addresses/whitelist` and #23 `/webhooks` are longer) never match these anchored patterns.
  return EXTENSION_PATH_PATTERNS.some((route) => route.method === verb && route.pattern.test(path));
}
