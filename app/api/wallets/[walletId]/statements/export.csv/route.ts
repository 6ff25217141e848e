// A statement as CSV; every file generated has its SHA-256 written to the audit chain, so it can be proven
// unchanged later.

import { z } from 'zod';
import { walletNotConnected, withPermission } from '@/lib/server/route';
import { currentDb } from '@/lib/server/services';
import { auditStatementFile, loadStatements, statementCsv, statementFileName } from '@/lib/server/statements';
import { custodyFor } from '@/lib/server/wallets';
import { statementPeriodOf } from '@/lib/validation/statements';

/** The route's query: the statement page's fields, checked as the page checks them. */
const statementQuerySchema = z.object({
  from: z.string().max(10).optional().default(''),
  to: z.string().max(10).optional().default(''),
  asset: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,16}$/, 'Choose an asset')
    .optional()
    .default(''),
});

export const dynamic = 'force-dynamic';

export const GET = withPermission(
  'read',
  async ({ actor, params, query }) => {
    const walletId = String(params.walletId ?? '');
    const client = await custodyFor(walletId);
    if (!client) return walletNotConnected();
    const period = statementPeriodOf(query, new Date());
    if (!period.ok) return Response.json({ statusCode: 422, message: period.error }, { status: 422 });
    const statements = await loadStatements(await currentDb(), client, {
      walletId,
      from: period.from,
      to: period.to,
      symbols: query.asset ? [query.asset] : undefined,
    });
    const statement = statements[0];
    if (!statement)
      return Response.json({ statusCode: 404, message: 'This wallet has no such asset.' }, { status: 404 });
    const csv = statementCsv(statement);
    const sha256 = await auditStatementFile(
      await currentDb(),
      { actorId: actor.id, actorEmail: actor.email, role: actor.role, requestId: actor.requestId },
      statement,
      csv,
    );
    return new Response(csv, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${statementFileName(statement)}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-statement-sha256': sha256,
      },
    });
  },
  statementQuerySchema,
);
