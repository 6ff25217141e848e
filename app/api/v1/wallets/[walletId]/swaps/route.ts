// POST /api/v1/wallets/{walletId}/swaps: a swap request that people approve.
export { requestSwap as POST } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
