// GET /api/v1/wallets/{walletId}/transactions: a page of the wallet's transactions.
export { listWalletTransactions as GET } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
