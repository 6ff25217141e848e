import type { Metadata } from 'next';
import { type SessionListItem, SessionsTable } from '@/components/account/sessions-table';
import { PageHeader } from '@/components/shell/page-header';
import { describeUserAgent } from '@/lib/format/user-agent';
import { requirePage } from '@/lib/server/page-guard';
import { currentDb } from '@/lib/server/services';
import { listSessions } from '@/lib/server/sessions';

export const metadata: Metadata = { title: 'Sessions' };

export default async function SessionsPage() {
  const actor = await requirePage('read');
  const rows = await listSessions(await currentDb(), actor.id);
  const sessions: SessionListItem[] = rows.map((s) => ({
    id: s.id,
    device: describeUserAgent(s.userAgent),
    address: s.ipAddress,
    startedAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s.id === actor.sessionId,
  }));
  return (
    <>
      <PageHeader
        title="Sessions"
        description="Where you are signed in. End any session you do not recognise: it stops at once."
      />
      <SessionsTable sessions={sessions} />
    </>
  );
}
