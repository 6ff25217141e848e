// GET /api/v1/openapi.json: the console API's OpenAPI document (public: it describes, it grants nothing).
import { getConfig } from '@/lib/config';
import { openApiDocument } from '@/lib/server/service-tokens/contract';

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(openApiDocument(getConfig().origin), { headers: { 'cache-control': 'no-store' } });
}
