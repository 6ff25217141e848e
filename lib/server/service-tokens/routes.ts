import 'server-only';
// The console API's routes (`app/api/v1/**/route.ts` export these): reads answer with the console's own shapes
// and paging; withdrawals and swaps become approval requests through the same checks as the console's forms.
import { and, count, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { type OperationRequestRow, operationRequests } from '@/lib/db/schema';
import { withoutControlCharacters } from '@/lib/validation/control-characters';
import { swapFormSchema } from '@/lib/validation/swap-schema';
import { transactionSearchSchema } from '@/lib/validation/transaction-search-schema';
import { filtersOf } from '@/lib/validation/transactions';
import { withdrawalFormSchema } from '@/lib/validation/withdrawal-schema';
import { getApprovalEngine } from '../approvals';
import { hashPayload } from '../approvals/hash';
import { WALLET_NOT_CONNECTED } from '../errors';
import { checkSwap, checkWithdrawal, type PayloadCheck } from '../request-payloads';
import { readJsonBody } from '../route';
import { listTransactionPage, withTransactionSource } from '../transactions';
import { loadWalletView } from '../wallet-views';
import { custodyFor, listWalletConnections } from '../wallets';
import { type ApiContext, apiError, withServiceToken } from './api';
import {
  pageQuery,
  swapBody,
  toApiRequest,
  type WithdrawalBody,
  withdrawalBatchBody,
  withdrawalSingleBody,
} from './contract';
import { createTokenRequest } from './requests';

const json = (body: unknown, init: ResponseInit = {}) =>
  Response.json(body, { ...init, headers: { 'cache-control': 'no-store', ...init.headers } });

/**
 * The API's name of a field the console's form checks named: the form holds recipients as `rows`, the API takes
 * `items` (or one recipient's fields at the top level); the API's other fields keep their names.
 */
type FieldNames = (field: string) => string;
const sameNames: FieldNames = (field) => field;
const withdrawalNames =
  (single: boolean): FieldNames =>
  (field) =>
    field.replace(/^rows\.(\d+)\./, single ? '' : 'items.$1.');

/** "items.0.amount: Enter an amount." for each problem, so a system's log says what to fix. */
function invalid(error: z.ZodError, names: FieldNames = sameNames): Response {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = names(issue.path.join('.'));
    if (field && !(field in fieldErrors)) fieldErrors[field] = issue.message;
  }
  const message = Object.entries(fieldErrors)
    .map(([field, text]) => `${field}: ${text}`)
    .concat(error.issues.filter((i) => i.path.length === 0).map((i) => i.message))
    .join('; ');
  return apiError(422, 'invalid_body', message || 'The body is not valid.', {}, { fieldErrors });
}

function refused(check: Extract<PayloadCheck<unknown>, { ok: false }>, names: FieldNames): Response {
  const fieldErrors = Object.fromEntries(
    Object.entries(check.fieldErrors ?? {}).map(([field, message]) => [names(field), message]),
  );
  const fields = Object.entries(fieldErrors).map(([field, message]) => `${field}: ${message}`);
  const status = check.status ?? 422;
  return apiError(
    status,
    status === 404 ? 'wallet_not_connected' : 'invalid_body',
    [check.error, ...fields].join(' '),
    {},
    { fieldErrors },
  );
}

async function requestResponse(id: string, status: number, replayed: boolean) {
  const view = await (await getApprovalEngine()).view(id);
  if (!view) return apiError(404, 'not_found', 'No such request.');
  const headers: Record<string, string> = { location: `/api/v1/requests/${id}` };
  if (replayed) headers['idempotent-replayed'] = 'true';
  return json({ data: toApiRequest(view.request, view.approvals, view.items) }, { status, headers });
}

/** Reads the body, the Idempotency-Key and the payload check shared by withdrawals and swaps. */
async function moneyRequest<B>(
  ctx: ApiContext,
  kind: 'withdraw' | 'swap',
  schemaFor: (body: unknown) => { schema: z.ZodType<B>; names: FieldNames },
  check: (body: B, walletId: string, names: FieldNames) => Promise<PayloadCheck<unknown> | Response>,
) {
  const key = ctx.request.headers.get('idempotency-key');
  if (key !== null && !/^[\x21-\x7e]{1,200}$/.test(key))
    return apiError(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1 to 200 printable ASCII characters.',
    );
  const read = await readJsonBody(ctx.request);
  if (!read.ok) {
    const body = (await read.response.json()) as { statusCode: number; message: string };
    return apiError(
      body.statusCode,
      body.statusCode === 413 ? 'body_too_large' : 'invalid_json',
      body.message,
    );
  }
  const { schema, names } = schemaFor(read.body);
  const parsed = schema.safeParse(read.body);
  if (!parsed.success) return invalid(parsed.error);
  const walletId = ctx.params.walletId ?? '';
  const outcome = await createTokenRequest({
    db: ctx.db,
    engine: await getApprovalEngine(),
    token: ctx.token,
    actor: ctx.actor,
    kind,
    walletId,
    payload: async () => {
      const checked = await check(parsed.data, walletId, names);
      if (checked instanceof Response) return { ok: false, response: checked };
      if (!checked.ok) return { ok: false, response: refused(checked, names) };
      return { ok: true, payload: checked.payload };
    },
    idempotencyKey: key,
    bodyHash: hashPayload({ walletId, body: read.body }),
    now: ctx.now,
  });
  if (!outcome.ok && 'response' in outcome) return outcome.response;
  if (!outcome.ok)
    return apiError(
      outcome.status,
      outcome.code,
      outcome.message,
      outcome.retryAfterSeconds ? { 'retry-after': String(outcome.retryAfterSeconds) } : {},
    );
  return requestResponse(outcome.requestId, outcome.replayed ? 200 : 201, outcome.replayed);
}

function withdrawalValues(body: WithdrawalBody, walletId: string) {
  const items = 'items' in body ? body.items : [body];
  return withdrawalFormSchema.safeParse({
    walletId,
    kind: 'withdraw',
    source: body.source?.trim() || 'master',
    rows: items.map((i) => ({
      address: i.address,
      amount: i.amount,
      assetId: i.assetId,
      reference: i.reference ?? '',
      note: i.note ?? '',
      metadata: i.metadata ? JSON.stringify(i.metadata) : '',
    })),
  });
}

/** One recipient as a bare object, or up to 20 as `items`: each form parsed by its own schema, named in its terms. */
function withdrawalSchemaFor(body: unknown): { schema: z.ZodType<WithdrawalBody>; names: FieldNames } {
  const batch = typeof body === 'object' && body !== null && 'items' in body;
  return { schema: batch ? withdrawalBatchBody : withdrawalSingleBody, names: withdrawalNames(!batch) };
}

export const requestWithdrawal = withServiceToken({ scope: 'withdrawals:request' }, (ctx) =>
  moneyRequest(ctx, 'withdraw', withdrawalSchemaFor, async (body, walletId, names) => {
    const values = withdrawalValues(body, walletId);
    if (!values.success) return invalid(values.error, names);
    return checkWithdrawal(values.data);
  }),
);

export const requestSwap = withServiceToken({ scope: 'swaps:request' }, (ctx) =>
  moneyRequest(
    ctx,
    'swap',
    () => ({ schema: swapBody, names: sameNames }),
    async (body, walletId) => {
      const values = swapFormSchema.safeParse({
        walletId,
        ...body,
        metadata: body.metadata ? JSON.stringify(body.metadata) : undefined,
      });
      if (!values.success) return invalid(values.error);
      return checkSwap(values.data);
    },
  ),
);

export const listWallets = withServiceToken({ scope: 'read' }, async (ctx) => {
  // The list is not paged: a query (a page number, say) would be silently ignored, so it is refused instead.
  const names = [...new URL(ctx.request.url).searchParams.keys()];
  if (names.length > 0)
    return apiError(
      422,
      'invalid_query',
      `This route takes no query parameters; remove ${[...new Set(names)].map((n) => withoutControlCharacters(n).slice(0, 40)).join(', ')}.`,
    );
  const rows = await listWalletConnections(ctx.db);
  // What a system needs to address a wallet; never the custody key's last characters or who connected it.
  return json({
    data: rows
      .filter((r) => ctx.token.walletIds.includes(r.id))
      .map(({ id, name, blockchain, network, address }) => ({ id, name, blockchain, network, address })),
  });
});

export const getWallet = withServiceToken({ scope: 'read' }, async (ctx) => {
  const result = await loadWalletView(ctx.params.walletId ?? '', ctx.actor.requestId ?? null);
  if (!result.ok)
    return apiError(result.status, result.status === 404 ? 'not_found' : 'upstream_error', result.error);
  return json({ data: result.data });
});

export const listWalletTransactions = withServiceToken({ scope: 'read' }, async (ctx) => {
  const walletId = ctx.params.walletId ?? '';
  const query = transactionSearchSchema.safeParse(Object.fromEntries(new URL(ctx.request.url).searchParams));
  if (!query.success) return invalid(query.error);
  const client = await custodyFor(walletId);
  if (!client) return apiError(404, 'wallet_not_connected', WALLET_NOT_CONNECTED);
  const filters = filtersOf(query.data);
  const page = await withTransactionSource(client, walletId, (source) =>
    listTransactionPage(client, walletId, filters, source),
  );
  return json({ data: page });
});

export const listRequests = withServiceToken({ scope: null }, async (ctx) => {
  const query = pageQuery.safeParse(Object.fromEntries(new URL(ctx.request.url).searchParams));
  if (!query.success) return invalid(query.error);
  const { page, limit } = query.data;
  const mine = eq(operationRequests.requesterId, ctx.actor.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(operationRequests)
      .where(mine)
      .orderBy(desc(operationRequests.createdAt))
      .limit(limit)
      .offset((page - 1) * limit),
    ctx.db.select({ n: count() }).from(operationRequests).where(mine),
  ]);
  const engine = await getApprovalEngine();
  const views = await Promise.all(rows.map((r: OperationRequestRow) => engine.view(r.id)));
  return json({
    data: views.flatMap((v) => (v ? [toApiRequest(v.request, v.approvals, v.items)] : [])),
    meta: { page, limit, total: total?.n ?? 0 },
  });
});

export const getRequest = withServiceToken({ scope: null }, async (ctx) => {
  const id = ctx.params.requestId ?? '';
  const [row] = z.uuid().safeParse(id).success
    ? await ctx.db
        .select({ id: operationRequests.id })
        .from(operationRequests)
        .where(and(eq(operationRequests.id, id), eq(operationRequests.requesterId, ctx.actor.id)))
        .limit(1)
    : [];
  // Another token's or a person's request is "no such request": its existence is not this token's to know.
  if (!row) return apiError(404, 'not_found', 'No such request of this token.');
  return requestResponse(row.id, 200, false);
});
