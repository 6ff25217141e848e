// TanStack Query keys shared by pages and the live-update client: one definition, so an invalidation
// by prefix (e.g. ['transactions', walletId]) reaches every query of that wallet.

export const transactionKeys = {
  /** Every transaction list of a wallet, whatever its filters. */
  all: (walletId: string) => ['transactions', walletId] as const,
  /** One transaction (drawer). */
  detail: (walletId: string, transactionId: string) => ['transaction', walletId, transactionId] as const,
  /** One child address's transactions (#3); under `all`, so every live event of the wallet refreshes it. */
  address: (walletId: string, addressId: string, view: Record<string, unknown>) =>
    ['transactions', walletId, 'address', addressId, view] as const,
};

export const walletKeys = {
  detail: (walletId: string) => ['wallet', walletId] as const,
  /** A child address's balances; under `detail`, so a live event of the wallet refreshes them. */
  addressBalances: (walletId: string, addressId: string) =>
    ['wallet', walletId, 'address', addressId, 'balances'] as const,
};

export const addressKeys = {
  /** Every address-list query of a wallet, whatever its filters. */
  all: (walletId: string) => ['addresses', walletId] as const,
  list: (walletId: string, filters: Record<string, unknown>) => ['addresses', walletId, filters] as const,
};

export const webhookKeys = {
  /** Every webhook-log query of a wallet (the log pages and per-transaction deliveries). */
  all: (walletId: string) => ['webhooks', walletId] as const,
  list: (walletId: string, filters: Record<string, unknown>) =>
    ['webhooks', walletId, 'list', filters] as const,
  transaction: (walletId: string, transactionId: string) =>
    ['webhooks', walletId, 'transaction', transactionId] as const,
  /** The /webhooks index (failed-delivery counts per wallet). */
  summary: () => ['webhooks', 'summary'] as const,
};

export const approvalKeys = {
  all: () => ['approvals'] as const,
};
