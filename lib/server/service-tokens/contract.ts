import 'server-only';
// The console API's contract: the bodies it takes and the shapes it answers with, as zod schemas the routes
// parse with and the OpenAPI document (`/api/v1/openapi.json`) is generated from, so the two cannot drift.
import { z } from 'zod';
import {
  SORT_ORDERS,
  TRANSACTION_SORT_FIELDS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '@/lib/custody/constants';
import type { OperationApprovalRow, OperationItemRow, OperationRequestRow } from '@/lib/db/schema';
import { SWAP_ORDERS } from '@/lib/validation/swaps';
import { TRANSACTION_PAGE_SIZES } from '@/lib/validation/transactions';
import { MAX_RECIPIENTS } from '@/lib/validation/withdrawals';

const withdrawalItem = z
  .object({
    assetId: z
      .string()
      .min(1)
      .max(100)
      .describe('The wallet asset id, as GET /api/v1/wallets/{walletId} lists it'),
    address: z.string().min(1).max(200).describe('The recipient address'),
    amount: z.string().min(1).max(100).describe('A decimal amount in the asset, e.g. "125.50"'),
    reference: z
      .string()
      .max(64)
      .optional()
      .describe(
        'Your reference, sent to the custody service and unique per wallet; one is derived if absent',
      ),
    note: z.string().max(1000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const source = z.string().max(100).optional().describe('"master" (default) or a child address id');

export const withdrawalBatchBody = z
  .object({ source, items: z.array(withdrawalItem).min(1).max(MAX_RECIPIENTS) })
  .strict();
export const withdrawalSingleBody = withdrawalItem.extend({ source }).strict();
const withdrawalBody = z.union([withdrawalBatchBody, withdrawalSingleBody]);
export type WithdrawalBody = z.infer<typeof withdrawalBody>;

export const swapBody = z
  .object({
    addressId: z.string().min(1).max(100).describe('The child address that swaps'),
    fromAssetId: z.string().min(1).max(100),
    toAssetId: z.string().min(1).max(100),
    amount: z.string().min(1).max(100),
    order: z.enum(SWAP_ORDERS),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const apiRequest = z.object({
  id: z.uuid(),
  type: z.string().describe('withdraw or swap'),
  status: z
    .string()
    .describe(
      'PENDING_APPROVAL, APPROVED, SUBMITTING, SUBMITTED, SUCCESS, FAILED, REJECTED, EXPIRED, CANCELLED, SUBMIT_FAILED, OUTCOME_UNKNOWN or DUPLICATE',
    ),
  walletId: z.string(),
  summary: z.string(),
  amountUsd: z.string().nullable(),
  approvals: z.number().int(),
  requiredApprovals: z.number().int(),
  approvedBy: z.array(z.string()),
  rejectReason: z.string().nullable(),
  lastError: z.string().nullable(),
  items: z.array(
    z.object({
      reference: z.string(),
      transactionId: z.string().nullable(),
      hash: z.string().nullable(),
      status: z.string().nullable().describe('The custody transaction status: PENDING, SUCCESS or FAILED'),
    }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
});
export type ApiRequest = z.infer<typeof apiRequest>;

export function toApiRequest(
  row: OperationRequestRow,
  approvals: OperationApprovalRow[],
  items: OperationItemRow[],
): ApiRequest {
  const approved = approvals.filter((a) => a.decision === 'approve');
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    walletId: row.walletId,
    summary: row.summary,
    amountUsd: row.amountUsd,
    approvals: approved.length,
    requiredApprovals: row.requiredApprovals,
    approvedBy: approved.map((a) => a.approverEmail),
    rejectReason: row.rejectReason,
    lastError: row.lastError,
    items: items.map((i) => ({
      reference: i.reference,
      transactionId: i.transactionId,
      hash: i.hash,
      status: i.status,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
});

const pageMeta = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int().nullable(),
});

/**
 * The steps of a request posted to a system's webhook (`request.<step>`); finer ones (confirmations, hashes,
 * follow-up rounds) are left to polling.
 */
export const SYSTEM_EVENT_KINDS = [
  'requested',
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'fully_approved',
  'submitted',
  'submit_failed',
  'submit_refused',
  'outcome_unknown',
  'reconciled',
  'duplicate_detected',
  'item_succeeded',
  'item_failed',
  'succeeded',
  'failed',
  'resolution_confirmed',
] as const;

/** The system webhook's body: a request's state changed. Signed as `X-Console-Signature: t=…,v1=…`. */
const webhookEvent = z.object({
  id: z.string().describe('Unique per event; deliveries of one event carry the same id'),
  type: z
    .enum(SYSTEM_EVENT_KINDS.map((k) => `request.${k}`) as [string, ...string[]])
    .describe(
      'The step: requested, approved (one approval), fully_approved, rejected, cancelled, expired, submitted, submit_failed, submit_refused, outcome_unknown, reconciled, duplicate_detected, item_succeeded / item_failed (one recipient settled), succeeded / failed (the whole request settled), resolution_confirmed',
    ),
  createdAt: z.string(),
  data: apiRequest.describe(
    'The request as it stood when the step was queued; deliveries may arrive out of order',
  ),
});

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});

const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: ERROR_WORDS[code] ?? 'Refused', content: json('Error') },
    ]),
  );

const ERROR_WORDS: Record<number, string> = {
  400: 'The body is not JSON, or the Idempotency-Key is not 1 to 200 printable characters',
  413: 'The body is larger than 64 KiB',
  500: 'The console failed; the message names a reference for its log',
  502: 'The custody service refused or did not answer; the message is the service’s',
  401: 'No token, an unknown, expired or revoked token',
  403: 'Outside the token’s networks, without the scope, or a wallet the token may not use',
  404: 'No such request or wallet',
  409: 'A call with the same Idempotency-Key is still being handled',
  422: 'The body is not valid, or the request was refused (daily cap, spending limit, balance)',
  429: 'Over the token’s calls per minute; see Retry-After',
};

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any unique string up to 200 characters. A call repeated with the same key and body answers with the request the first call made (200, Idempotent-Replayed: true) and never makes a second.',
  schema: { type: 'string', maxLength: 200 },
};

const walletIdParam = { name: 'walletId', in: 'path', required: true, schema: { type: 'string' } };

const query = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  ...(description ? { description } : {}),
});

/** The console's transaction filters, as its own transactions page takes them (an unknown value is a 422). */
const transactionParams = [
  query('status', { type: 'string', enum: [...TRANSACTION_STATUSES] }),
  query('type', { type: 'string', enum: [...TRANSACTION_TYPES] }),
  query('assets', { type: 'string' }, 'Up to 20 comma-separated asset symbols'),
  query('sort', { type: 'string', enum: [...TRANSACTION_SORT_FIELDS], default: 'createdAt' }),
  query('order', { type: 'string', enum: [...SORT_ORDERS], default: 'DESC' }),
  query('id', { type: 'string', format: 'uuid' }),
  query('hash', { type: 'string' }),
  query('reference', { type: 'string', maxLength: 200 }),
  query('addressId', { type: 'string', format: 'uuid' }, 'One child address'),
  query('page', { type: 'integer', minimum: 1, default: 1 }),
  query('limit', { type: 'integer', enum: [...TRANSACTION_PAGE_SIZES], default: 50 }),
];

const pageParams = [
  { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
];

/** Every route of the console API, with its method: the OpenAPI document's paths and the test's list. */
export const API_ROUTES = [
  'GET /api/v1/wallets',
  'GET /api/v1/wallets/{walletId}',
  'GET /api/v1/wallets/{walletId}/transactions',
  'POST /api/v1/wallets/{walletId}/withdrawals',
  'POST /api/v1/wallets/{walletId}/swaps',
  'GET /api/v1/requests',
  'GET /api/v1/requests/{requestId}',
] as const;

export function openApiDocument(serverUrl: string) {
  const read = { security: [{ token: [] }] };
  const created = (what: string) => ({
    '201': {
      description: `${what} request made; it waits for people to approve it`,
      headers: { Location: { schema: { type: 'string' } } },
      content: json('RequestEnvelope'),
    },
    '200': {
      description: 'The same Idempotency-Key and body again: the request the first call made',
      headers: { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] } } },
      content: json('RequestEnvelope'),
    },
    ...errors(400, 401, 403, 404, 409, 413, 422, 429, 500, 502),
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Custody Console API',
      version: '1.0.0',
      description:
        'For back-office systems. A service token (made by an admin, approved by a second admin) authenticates every call as `Authorization: Bearer cct_…`. Withdrawals and swaps become approval requests that people approve in the console; the token never approves and never sends money itself. Follow a request by polling GET /api/v1/requests/{requestId} or by the signed webhook the token may name (`X-Console-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook secret>`).',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { token: { type: 'http', scheme: 'bearer', description: 'A service token, cct_…' } },
      schemas: {
        Error: jsonSchema(apiErrorSchema),
        Request: jsonSchema(apiRequest),
        RequestEnvelope: { type: 'object', properties: { data: { $ref: '#/components/schemas/Request' } } },
        RequestPage: {
          type: 'object',
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/Request' } },
            meta: jsonSchema(pageMeta),
          },
        },
        WithdrawalBody: jsonSchema(withdrawalBody, 'input'),
        SwapBody: jsonSchema(swapBody, 'input'),
        WebhookEvent: jsonSchema(webhookEvent),
        Any: { type: 'object', additionalProperties: true },
      },
    },
    paths: {
      '/api/v1/wallets': {
        get: {
          summary: 'The wallets this token may use',
          operationId: 'listWallets',
          ...read,
          responses: {
            '200': {
              description: 'Wallets',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Any' } } },
                  },
                },
              },
            },
            ...errors(401, 403, 429, 500),
          },
        },
      },
      '/api/v1/wallets/{walletId}': {
        get: {
          summary: 'A wallet with its assets and balances (asset ids for withdrawals)',
          operationId: 'getWallet',
          parameters: [walletIdParam],
          ...read,
          responses: {
            '200': { description: 'The wallet', content: json('Any') },
            ...errors(401, 403, 404, 429, 500, 502),
          },
        },
      },
      '/api/v1/wallets/{walletId}/transactions': {
        get: {
          summary: 'A page of the wallet’s transactions, newest first',
          operationId: 'listTransactions',
          parameters: [walletIdParam, ...transactionParams],
          ...read,
          responses: {
            '200': { description: 'One page, with its paging', content: json('Any') },
            ...errors(401, 403, 404, 422, 429, 500, 502),
          },
        },
      },
      '/api/v1/wallets/{walletId}/withdrawals': {
        post: {
          summary: 'Request a withdrawal (one recipient, or up to 20 as items)',
          operationId: 'requestWithdrawal',
          parameters: [walletIdParam, idempotencyKey],
          ...read,
          requestBody: { required: true, content: json('WithdrawalBody') },
          responses: created('Withdrawal'),
        },
      },
      '/api/v1/wallets/{walletId}/swaps': {
        post: {
          summary: 'Request a swap from a child address',
          operationId: 'requestSwap',
          parameters: [walletIdParam, idempotencyKey],
          ...read,
          requestBody: { required: true, content: json('SwapBody') },
          responses: created('Swap'),
        },
      },
      '/api/v1/requests': {
        get: {
          summary: 'This token’s requests, newest first',
          operationId: 'listRequests',
          parameters: pageParams,
          ...read,
          responses: {
            '200': { description: 'One page', content: json('RequestPage') },
            ...errors(401, 403, 422, 429, 500),
          },
        },
      },
      '/api/v1/requests/{requestId}': {
        get: {
          summary: 'One of this token’s requests: its state, approvals and transactions',
          operationId: 'getRequest',
          parameters: [
            { name: 'requestId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          ],
          ...read,
          responses: {
            '200': { description: 'The request', content: json('RequestEnvelope') },
            ...errors(401, 403, 404, 429, 500),
          },
        },
      },
    },
    webhooks: {
      requestChanged: {
        post: {
          summary: 'A request of this token changed state',
          requestBody: { content: json('WebhookEvent') },
          responses: { '200': { description: 'Received; any 2xx ends the retries' } },
        },
      },
    },
  };
}
