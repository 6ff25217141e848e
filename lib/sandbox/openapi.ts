import 'server-only';
// OpenAPI 3.1 description of the sandbox, generated from the same zod schemas the client parses with.
import { z } from 'zod';
import {
  autoSettlementRuleInput,
  contractCallsBodyInput,
  schemas,
  swapInput,
  typedDataInput,
  whitelistAddressInput,
  withdrawBodyInput,
  withdrawNetworkFeeBodyInput,
} from '@/lib/custody/schemas';
import { faultsBody, faultsState } from './faults';
import * as req from './requests';
import { ROUTES } from './router';

const s = schemas;
const either = (a: z.ZodType, b: z.ZodType) => z.union([a, b]);

/** Response `data` per route pattern. */
const RESPONSES: Record<string, { data: z.ZodType; paged?: boolean }> = {
  'POST /v1/wallets/:walletId/transactions/retry': { data: s.transaction },
  'POST /v1/wallets/:walletId/transactions/webhooks/resend': { data: s.transaction },
  'GET /v1/wallets/:walletId/addresses/:addressId/transactions': { data: s.transaction, paged: true },
  'GET /v1/wallets/:walletId': { data: s.wallet },
  'GET /v1/wallets/:walletId/addresses/:addressId': { data: s.address },
  'POST /v1/wallets/:walletId/addresses/whitelist': { data: s.address },
  'DELETE /v1/wallets/:walletId/beneficiaries/:id': { data: s.beneficiary },
  'GET /v1/wallets/:walletId/auto-settlements': { data: s.walletAutoSettlement },
  'PATCH /v1/wallets/:walletId/auto-settlements': { data: s.walletAutoSettlement },
  'POST /v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules': { data: s.autoSettlementRule },
  'PATCH /v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules/:id': {
    data: s.autoSettlementRule,
  },
  'POST /v1/wallets/:walletId/withdraw': { data: s.transaction },
  'POST /v1/wallets/:walletId/addresses/:addressId/withdraw': { data: s.transaction },
  'POST /v1/wallets/:walletId/withdraw/sign': { data: s.withdrawSignResult },
  'POST /v1/wallets/:walletId/withdraw/network-fee': {
    data: either(s.withdrawNetworkFeeSingle, s.withdrawNetworkFeeBatch),
  },
  'POST /v1/wallets/:walletId/addresses/:addressId/contracts/write': {
    data: either(s.transaction, s.contractWriteBatch),
  },
  'POST /v1/wallets/:walletId/addresses/:addressId/contracts/write/sign': {
    data: either(s.contractSignedTransaction, s.contractSignBatch),
  },
  'POST /v1/wallets/:walletId/contracts/read': { data: either(s.contractReadSingle, s.contractReadBatch) },
  'POST /v1/wallets/:walletId/contracts/network-fee': {
    data: either(s.contractNetworkFeeSingle, s.contractNetworkFeeBatch),
  },
  'POST /v1/wallets/:walletId/addresses/:addressId/swaps/execute': { data: s.transaction },
  'POST /v1/wallets/:walletId/addresses/:addressId/signing/typed-data': {
    data: s.typedDataSignedTransaction,
  },
  'GET /v1/wallets/:walletId/webhooks': { data: s.webhookLog, paged: true },
  'GET /v1/wallets/:walletId/transactions/:id/webhooks': { data: z.array(s.webhookLog) },
  'GET /v1/wallets/:walletId/addresses': { data: s.address, paged: true },
  'GET /v1/wallets/:walletId/transactions': { data: s.transaction, paged: true },
  'GET /v1/wallets/:walletId/transactions/:id': { data: s.transaction },
  'GET /v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules': {
    data: z.array(s.autoSettlementRule),
  },
  'GET /v1/wallets/:walletId/beneficiaries': { data: s.beneficiary, paged: true },
  'POST /control/deposits': { data: s.transaction },
  'GET /control/faults': { data: faultsState },
  'POST /control/faults': { data: faultsState },
};

/** Request bodies: the client's input schemas where it has them (what callers should send). */
const BODIES: Record<string, z.ZodType> = {
  'POST /v1/wallets/:walletId/addresses/whitelist': whitelistAddressInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules': autoSettlementRuleInput,
  'PATCH /v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules/:id': autoSettlementRuleInput,
  'POST /v1/wallets/:walletId/withdraw': withdrawBodyInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/withdraw': withdrawBodyInput,
  'POST /v1/wallets/:walletId/withdraw/sign': withdrawBodyInput,
  'POST /v1/wallets/:walletId/withdraw/network-fee': withdrawNetworkFeeBodyInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/contracts/write': contractCallsBodyInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/contracts/write/sign': contractCallsBodyInput,
  'POST /v1/wallets/:walletId/contracts/read': contractCallsBodyInput,
  'POST /v1/wallets/:walletId/contracts/network-fee': contractCallsBodyInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/swaps/execute': swapInput,
  'POST /v1/wallets/:walletId/addresses/:addressId/signing/typed-data': typedDataInput,
  'POST /control/deposits': req.depositBody,
  'POST /control/faults': faultsBody,
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  try {
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Record<
      string,
      unknown
    >;
    delete out.$schema;
    return out;
  } catch {
    return {};
  }
}

const QUERY: Record<string, string[]> = {
  'GET /v1/wallets/:walletId/addresses/:addressId/transactions': [
    'id',
    'hash',
    'status',
    'type',
    'order',
    'assets',
    'page',
    'limit',
  ],
  'GET /v1/wallets/:walletId/transactions': [
    'id',
    'hash',
    'status',
    'type',
    'order',
    'assets',
    'reference',
    'addressId',
    'sort',
    'page',
    'limit',
  ],
  'GET /v1/wallets/:walletId/webhooks': ['page', 'limit'],
  'GET /v1/wallets/:walletId/addresses': ['search', 'type', 'order', 'page', 'limit'],
  'GET /v1/wallets/:walletId/beneficiaries': ['page', 'limit'],
  'GET /v1/wallets/:walletId': ['showPrivateKey'],
  'GET /v1/wallets/:walletId/addresses/:addressId': ['showPrivateKey'],
};

/** What a query parameter means, where the name alone does not say (`METHOD pattern name`). */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  'GET /v1/wallets/:walletId/transactions sort':
    'Sort field: createdAt (default), amount, amountUSD, type or status; `order` (ASC or DESC, default DESC) is its direction. Amounts compare as numbers, missing values come last, ties fall back to createdAt, then id.',
  'GET /v1/wallets/:walletId/transactions order': 'ASC or DESC (default DESC), the direction of `sort`.',
  'GET /v1/wallets/:walletId/addresses/:addressId/transactions order':
    'ASC or DESC (default DESC): date order; this list does not take `sort`.',
};

let cached: Record<string, unknown> | undefined;

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  cached ??= build();
  return { ...cached, servers: [{ url: serverUrl }] };
}

function build(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = {
    type: 'object',
    required: ['statusCode', 'message'],
    properties: { statusCode: { type: 'integer' }, message: { type: 'string' } },
  };
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: errorSchema } },
  });
  const meta = jsonSchema(s.pageMeta, 'output');
  for (const route of ROUTES) {
    const key = `${route.method} ${route.pattern}`;
    const openPath = route.pattern.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams = (QUERY[key] ?? []).map((name) => {
      const description = QUERY_DESCRIPTIONS[`${key} ${name}`];
      return {
        name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
        ...(description ? { description } : {}),
      };
    });
    const response = RESPONSES[key];
    const dataSchema = response
      ? jsonSchema(response.paged ? z.array(response.data) : response.data, 'output')
      : {};
    const body = BODIES[key] ?? route.body;
    paths[openPath] ??= {};
    paths[openPath]![route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${openPath.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      parameters: [...pathParams, ...queryParams],
      ...(body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(body, 'input') } },
            },
          }
        : {}),
      responses: {
        '200': {
          description: 'Success envelope',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data', 'message', 'statusCode', ...(response?.paged ? ['meta'] : [])],
                properties: {
                  data: dataSchema,
                  message: { type: 'string' },
                  statusCode: { type: 'integer', const: 200 },
                  ...(response?.paged ? { meta } : {}),
                },
              },
            },
          },
        },
        '400': errorResponse('Malformed body'),
        '401': errorResponse('Missing or invalid x-api-key'),
        '403': errorResponse('Key used on another wallet, or wrong two-factor code'),
        '404': errorResponse('Unknown wallet, address, transaction, rule or beneficiary'),
        '422': errorResponse('Well-formed but invalid request'),
        '429': errorResponse('Rate limit exceeded (see Retry-After)'),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Custody sandbox',
      version: '1.0.0',
      description:
        'The embedded custody service of the console: the 23 endpoints of the custody API spec plus listing extensions, and control endpoints for tests and demos. POST /control/deposits simulates a deposit. POST /control/faults sets, for the calling wallet: delayNextMs (its next money-moving or signing call, #1 retry, #12, #13, #14, #16, #17, #20 or #21, waits that long, then executes even if the caller has gone, then answers), dropNextAnswer (that call executes and its answer is lost: 502 without a JSON body) and specOnly (the extension endpoints answer 404 as unknown paths until switched off); GET /control/faults reads them.',
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
