// Service tokens for the console's API (`/api/v1`): the scopes a token may hold, the reviews of creating and
// rotating one, and what the admin pages show of a token. Browser-safe: the form, the review panel and the
// server read the same lists.

export const SERVICE_TOKEN_SCOPES = ['read', 'withdrawals:request', 'swaps:request'] as const;
export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];

export const SCOPE_WORDS: Record<ServiceTokenScope, { label: string; description: string }> = {
  read: { label: 'Read', description: 'Wallets, balances, transactions and the token’s own requests' },
  'withdrawals:request': {
    label: 'Request withdrawals',
    description: 'Creates withdrawal requests that people approve; never sends one itself',
  },
  'swaps:request': {
    label: 'Request swaps',
    description: 'Creates swap requests that people approve; never sends one itself',
  },
};

/** What a token looks like to people and in reviews: never its secret or its webhook secret. */
export interface ServiceTokenSettings {
  name: string;
  scopes: ServiceTokenScope[];
  walletIds: string[];
  dailyCapUsd: string;
  minApprovals: number;
  allowedCidrs: string[];
  rateLimitPerMinute: number;
  /** Host and path start only: a webhook URL can carry its own secret. */
  webhookHint: string | null;
}

export type ServiceTokenCreateReview = ServiceTokenSettings & {
  kind: 'serviceTokenCreate';
  /** The token expires this many days after the approval that makes it. */
  expiresInDays: number;
  /** Names of the wallets, as connected now. */
  walletNames: string[];
  warnings: string[];
  builtAt: string;
};

export type ServiceTokenRotateReview = {
  kind: 'serviceTokenRotate';
  tokenId: string;
  name: string;
  prefix: string;
  warnings: string[];
  builtAt: string;
};

export interface ServiceTokenView extends ServiceTokenSettings {
  id: string;
  expiresAt: string;
  /** The wallets' names as connected now (the id where a wallet is no longer connected). */
  walletNames: string[];
  prefix: string;
  createdByEmail: string;
  approvedBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  rotatedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  /** `active`, `expired` or `revoked`. */
  state: 'active' | 'expired' | 'revoked';
}

/** The requester id a token's requests carry: never a person's id, so no person is ever "the requester". */
export const TOKEN_ACTOR_PREFIX = 'token:';

/** Why a person shown a token's secret may not approve its requests. */
export const TOKEN_HOLDER_REFUSAL =
  'You were shown this API token’s secret, or were added or given your role by someone who was, so its requests could be yours; another person must approve.';

export function isTokenActorId(id: string): boolean {
  return id.startsWith(TOKEN_ACTOR_PREFIX);
}

/** "https://hooks.example.com/…": enough to recognise a webhook URL without showing its path or query. */
export function webhookHintOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return null;
  }
}
