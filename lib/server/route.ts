import 'server-only';
import type { z } from 'zod';
import { jsonTextProblem, textProblem, withoutControlCharacters } from '@/lib/validation/control-characters';
import { CUSTODY_ID } from '@/lib/validation/custody-ids';
import { describeFailure, WALLET_NOT_CONNECTED } from './errors';
import { type Actor, audit, authorize } from './guard';
import { logger } from './logger';
import type { Action } from './permissions';

export interface RouteContext<Q> {
  actor: Actor;
  query: Q;
  request: Request;
  params: Record<string, string | string[]>;
}

type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

type QueryParams = Record<string, string>;
type ReadQuery<Q> = (
  raw: QueryParams,
) => { ok: true; query: Q } | { ok: false; message: string; fields: string[] };

/**
 * Wraps a route handler: session, permission and query validation first, then the handler;
 * typed failures become JSON with 401, 403, 422, or the upstream's status and message.
 * Without a query schema the handler gets the query string's parameters as they are.
 */
export function withPermission(
  action: Action,
  handler: (ctx: RouteContext<QueryParams>) => Promise<Response>,
): RouteHandler;
export function withPermission<Q>(
  action: Action,
  handler: (ctx: RouteContext<Q>) => Promise<Response>,
  querySchema: z.ZodType<Q>,
): RouteHandler;
export function withPermission<Q>(
  action: Action,
  ...args:
    | [handler: (ctx: RouteContext<QueryParams>) => Promise<Response>]
    | [handler: (ctx: RouteContext<Q>) => Promise<Response>, querySchema: z.ZodType<Q>]
): RouteHandler {
  if (args.length === 1) return guarded(action, args[0], (raw) => ({ ok: true, query: raw }));
  const [handler, querySchema] = args;
  return guarded(action, handler, (raw) => {
    const parsed = querySchema.safeParse(raw);
    return parsed.success
      ? { ok: true, query: parsed.data }
      : {
          ok: false,
          message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          fields: [...new Set(parsed.error.issues.map((i) => i.path.join('.')))],
        };
  });
}

/** The statuses that refuse a request's input (a handler's own checks included), audited as such. */
const INPUT_REFUSALS = new Set([400, 413, 422]);

function guarded<Q>(
  action: Action,
  handler: (ctx: RouteContext<Q>) => Promise<Response>,
  readQuery: ReadQuery<Q>,
): RouteHandler {
  return async (request, context) => {
    const authz = await authorize(action);
    if (!authz.ok)
      return Response.json({ statusCode: authz.status, message: authz.error }, { status: authz.status });
    const params = (await context.params) ?? {};
    const pathname = new URL(request.url).pathname;
    // A refused input is audited like an action's: which parameters were wrong, never their values.
    const auditRefusal = (fields: string[]) =>
      audit(authz.actor, `route ${action}`, 'invalid', {
        target: `${request.method} ${withoutControlCharacters(pathname).slice(0, 200)}`,
        input: { fields: fields.map((f) => withoutControlCharacters(f).slice(0, 64)) },
      }).catch((error) => logger.warn({ err: error }, 'a refused route input could not be audited'));
    const refuse = async (status: number, message: string, fields: string[]) => {
      await auditRefusal(fields);
      return Response.json({ statusCode: status, message }, { status });
    };
    // Every dynamic segment of these routes is a custody id (wallet, address, transaction): anything else, a
    // NUL say, names nothing the console or the service holds, and would otherwise reach the database as is.
    const badParam = Object.entries(params).find(([, v]) => typeof v !== 'string' || !CUSTODY_ID.test(v));
    if (badParam)
      return refuse(
        400,
        `The ${badParam[0]} in the address is not a valid id (letters, digits, dashes and underscores).`,
        [badParam[0]],
      );
    const raw = Object.fromEntries(new URL(request.url).searchParams);
    for (const [key, value] of Object.entries(raw)) {
      const problem = textProblem(key) ?? textProblem(value);
      if (problem) return refuse(422, `${withoutControlCharacters(key)}: ${problem}`, [key]);
    }
    const read = readQuery(raw);
    if (!read.ok) return refuse(422, read.message, read.fields);
    try {
      const response = await handler({ actor: authz.actor, query: read.query, request, params });
      // The handler's own refusals of its input (a period that does not exist, an id of the wrong kind).
      if (INPUT_REFUSALS.has(response.status)) await auditRefusal([]);
      return response;
    } catch (error) {
      const { message, status } = describeFailure(error, authz.actor.requestId, `route ${pathname}`);
      return Response.json({ statusCode: status, message }, { status });
    }
  };
}

/** The largest JSON body a route handler reads. */
const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * Reads a route handler's JSON body with a sentence for each way it can be wrong: too large (413), not
 * JSON, nested too deep or holding control characters (400). Never throws.
 */
export async function readJsonBody(
  request: Request,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const refuse = (status: number, message: string) => ({
    ok: false as const,
    response: Response.json({ statusCode: status, message }, { status }),
  });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return refuse(413, `The request body is larger than ${maxBytes} bytes.`);
  let text: string;
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) return refuse(413, `The request body is larger than ${maxBytes} bytes.`);
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(400, 'The request body could not be read as UTF-8 text.');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, 'The request body is not valid JSON.');
  }
  const problem = jsonTextProblem(body);
  if (problem) return refuse(400, `The request body was refused: ${problem.toLowerCase()}.`);
  return { ok: true, body };
}

/** The answer of a wallet route for a wallet id the console holds no connection for. */
export function walletNotConnected(): Response {
  return Response.json({ statusCode: 404, message: WALLET_NOT_CONNECTED }, { status: 404 });
}
