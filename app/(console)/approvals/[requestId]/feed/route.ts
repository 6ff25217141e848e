// One request with its review, decisions, items and timeline, as stored: the background follow-up and
// webhooks keep it current, so reading it never waits for the custody service.
import { getApprovalEngine } from '@/lib/server/approvals';
import { requestDetail } from '@/lib/server/approvals/dto';
import { withPermission } from '@/lib/server/route';

export const GET = withPermission('read', async ({ actor, params }) => {
  const id = String(params.requestId ?? '');
  const engine = await getApprovalEngine();
  const detail = await requestDetail(engine, actor, id);
  if (!detail) return Response.json({ statusCode: 404, message: 'No such request' }, { status: 404 });
  return Response.json({ data: detail });
});
