import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RequestDetail } from '@/components/approvals/request-detail';
import { getApprovalEngine } from '@/lib/server/approvals';
import { requestDetail } from '@/lib/server/approvals/dto';
import { requirePage } from '@/lib/server/page-guard';

export const metadata: Metadata = { title: 'Request' };

export default async function RequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  const actor = await requirePage('read');
  const { requestId } = await params;
  const engine = await getApprovalEngine();
  // The stored state renders at once; the follow-up runs in the background and the page updates live.
  const detail = await requestDetail(engine, actor, requestId);
  if (!detail) notFound();
  return <RequestDetail initial={detail} />;
}
