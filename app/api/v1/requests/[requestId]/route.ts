// GET /api/v1/requests/{requestId}: one of the calling token's requests, for polling.
export { getRequest as GET } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
