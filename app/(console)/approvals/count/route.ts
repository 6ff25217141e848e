// How many requests wait for this person's approval: the live count next to "Approvals" in the navigation.
import { getApprovalEngine } from '@/lib/server/approvals';
import { withPermission } from '@/lib/server/route';

export const GET = withPermission('read', async ({ actor }) => {
  const engine = await getApprovalEngine();
  return Response.json({ count: await engine.countNeedingApproval(actor) });
});
