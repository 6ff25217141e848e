// GET /api/v1/wallets/{walletId}: the wallet with its assets and balances.
export { getWallet as GET } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
