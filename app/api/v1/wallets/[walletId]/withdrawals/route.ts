// POST /api/v1/wallets/{walletId}/withdrawals: a withdrawal request that people approve.
export { requestWithdrawal as POST } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
