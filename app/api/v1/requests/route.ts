// GET /api/v1/requests: the calling token's requests.
export { listRequests as GET } from '@/lib/server/service-tokens/routes';

export const dynamic = 'force-dynamic';
