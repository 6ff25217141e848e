// The approvals queue as JSON, read by the queue's TanStack Query (key ['approvals', 'list', scope]).
import { z } from 'zod';
import { APPROVAL_SCOPES } from '@/lib/approvals/search-params';
import { getApprovalEngine } from '@/lib/server/approvals';
import { toSummaryDto } from '@/lib/server/approvals/dto';
import { withPermission } from '@/lib/server/route';

const query = z.object({ scope: z.enum(APPROVAL_SCOPES).default('needs-me') });

export const GET = withPermission(
  'read',
  async ({ actor, query }) => {
    const engine = await getApprovalEngine();
    const rows = await engine.list(actor, query.scope);
    return Response.json({ data: rows.map((r) => toSummaryDto(r.request, r.approvals)) });
  },
  query,
);
