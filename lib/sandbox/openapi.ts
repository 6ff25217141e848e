import 'server-only';
// OpenAPI 3.1 description of the sandbox, generated from its endpoint list and the same zod schemas the client
// parses with.
import { z } from 'zod';
import { schemas } from '@/lib/custody/schemas';
import { ENDPOINTS } from './handlers';

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
  const meta = jsonSchema(schemas.pageMeta, 'output');
  for (const route of ENDPOINTS) {
    const openPath = route.pattern.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams = (route.query ?? []).map((parameter) => {
      const { name, description } =
        typeof parameter === 'string' ? { name: parameter, description: undefined } : parameter;
      return {
        name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
        ...(description ? { description } : {}),
      };
    });
    const response = route.response;
    const dataSchema = response
      ? jsonSchema(response.paged ? z.array(response.data) : response.data, 'output')
      : {};
    const body = route.documentedBody ?? route.body;
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
