// GET /api/v1/wallets: the wallets the calling service token may use.
export { listWallets as GET } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
