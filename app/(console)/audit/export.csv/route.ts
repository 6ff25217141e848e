// CSV of every audit entry the filters match (all pages), streamed as it is read.
import { auditInputPairs, describeAuditAction } from '@/lib/audit-actions';
import { eachAuditEntry } from '@/lib/server/audit';
import { csvRow } from '@/lib/server/csv';
import { audit } from '@/lib/server/guard';
import { logger } from '@/lib/server/logger';
import { withPermission } from '@/lib/server/route';
import { getDb } from '@/lib/server/runtime';
import { auditDayProblems, auditFilterOf, loadAuditSearchParams } from '@/lib/validation/audit';

export const dynamic = 'force-dynamic';

const HEADER = [
  'id',
  'time_utc',
  'actor',
  'role',
  'action',
  'action_code',
  'target',
  'outcome',
  'input',
  'request_id',
];

export const GET = withPermission('audit.view', async ({ actor, request }) => {
  // A day the loader cannot read would be dropped, and the file would hold every entry instead of the period.
  const problems = auditDayProblems(new URL(request.url).searchParams);
  if (Object.keys(problems).length > 0)
    return Response.json(
      { statusCode: 400, message: Object.values(problems).join(' '), fieldErrors: problems },
      { status: 400 },
    );
  // Paging is the page's business: the file holds every matching entry.
  const { page: _page, ...filter } = auditFilterOf(loadAuditSearchParams(request));
  const db = await getDb();
  const encoder = new TextEncoder();
  const entries = eachAuditEntry(db, filter);
  let rows = 0;
  const finish = (error?: unknown) => {
    if (error) logger.warn({ requestId: actor.requestId, err: error }, 'audit export failed midway');
    // Reading the log out of the console is itself on record.
    void audit(actor, 'audit.export', error ? 'failed' : 'success', { input: { ...filter, rows } }).catch(
      (err) => logger.error({ err }, 'audit of audit export failed'),
    );
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(HEADER)));
    },
    async pull(controller) {
      try {
        const next = await entries.next();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        const r = next.value;
        rows += 1;
        const input = auditInputPairs(r.input)
          .map(([key, value]) => `${key}=${value}`)
          .join('; ');
        controller.enqueue(
          encoder.encode(
            csvRow([
              r.id,
              new Date(r.at).toISOString(),
              r.actorEmail,
              r.role,
              describeAuditAction(r.action).label,
              r.action,
              r.target,
              r.outcome,
              input,
              r.requestId,
            ]),
          ),
        );
      } catch (error) {
        finish(error);
        controller.error(error);
      }
    },
    async cancel() {
      await entries.return(undefined);
    },
  });
  const stamp = new Date().toISOString().replaceAll(':', '-').slice(0, 19);
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-log-${stamp}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
