import 'server-only';
// The console's API for back-office systems (`/api/v1`): one wrapper every route of it goes through. It finds the
// token (401), checks its networks (403), scope (403) and wallet (403), counts the call against the token's rate
// (429 with Retry-After), runs the route, maps failures to JSON `{ statusCode, code, message }`, and writes every
// call to the audit log, refused ones included. People's sessions play no part here.
import { randomUUID } from 'node:crypto';
import type { ServiceTokenScope } from '@/lib/approvals/service-tokens';
import { addressInNetworks, parseNetworkList } from '@/lib/config/networks';
import { CustodyError } from '@/lib/custody/errors';
import { createRateLimiter } from '@/lib/db/rate-limit';
import { type ConsoleDb, rateLimitWindows, type ServiceTokenRow } from '@/lib/db/schema';
import type { EngineActor } from '../approvals/engine';
import { appendAudit } from '../audit';
import { clientAddressOf, NETWORK_REFUSED, networkAllowed } from '../client-address';
import { describeFailure } from '../errors';
import { logger } from '../logger';
import { currentDb } from '../services';
import { findToken, hasScope, tokenActorId, tokenActorName, touchToken } from './tokens';

export interface ApiContext {
  token: ServiceTokenRow;
  actor: EngineActor;
  db: ConsoleDb;
  request: Request;
  params: Record<string, string>;
  now: Date;
}

export interface ApiRoute {
  /** The scope the route needs; null: any live token (the token's own requests). */
  scope: ServiceTokenScope | null;
}

type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** The JSON every refusal and failure of the API answers with. */
export function apiError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Response {
  return Response.json(
    { statusCode: status, code, message, ...extra },
    { status, headers: { 'cache-control': 'no-store', ...headers } },
  );
}

/** Calls without a valid token audited per client address and minute; more get the same answer, unaudited. */
const ANONYMOUS_AUDITED_PER_MINUTE = 30;

/**
 * Calls per token per minute, counted in the database: console instances sharing one database share each token's
 * limit. The daily cap is the bound on money, this is a bound on load.
 */
const limiter = createRateLimiter({ table: rateLimitWindows, windowMs: 60_000 });

export function withServiceToken(
  route: ApiRoute,
  handler: (ctx: ApiContext) => Promise<Response>,
): RouteHandler {
  return async (request, context) => {
    const db = await currentDb();
    const now = new Date();
    const requestId = request.headers.get('x-request-id') ?? randomUUID();
    const path = new URL(request.url).pathname;
    const raw = (await context.params) ?? {};
    const params = Object.fromEntries(
      Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]),
    );
    // Set once the token is known, for the audit entry (also of a call the route then refused).
    const seen: { token: ServiceTokenRow | null; unaudited: boolean } = { token: null, unaudited: false };
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      // The custody service's failure is the console's upstream's, never the caller's: 502 whatever its status,
      // so a system does not take the service's 401 or 429 for its own token's.
      const { message } = describeFailure(error, requestId, `api ${path}`);
      response =
        error instanceof CustodyError
          ? apiError(502, 'upstream_error', message)
          : apiError(500, 'server_error', message);
    }
    const { token } = seen;
    if (!token && seen.unaudited) return response;
    await appendAudit(db, {
      actorId: token ? tokenActorId(token.id) : null,
      actorEmail: token ? tokenActorName(token.name) : 'unknown API token',
      role: 'api',
      action: 'api.call',
      target: `${request.method} ${path}`,
      input: { status: response.status },
      outcome:
        response.status < 400
          ? 'success'
          : response.status === 401 || response.status === 403
            ? 'denied'
            : 'refused',
      requestId,
    }).catch((error) => logger.warn({ err: error, requestId }, 'an API call could not be audited'));
    response.headers.set('x-request-id', requestId);
    return response;

    async function run(): Promise<Response> {
      const found = await findToken(db, request.headers.get('authorization'), now);
      if (!found.ok) {
        // Answered alike, but audited only up to a rate per address: nobody without a token floods the log.
        const address = clientAddressOf(request.headers) ?? 'unknown';
        seen.unaudited = !(await limiter.take(db, `anonymous:${address}`, ANONYMOUS_AUDITED_PER_MINUTE))
          .allowed;
        return apiError(found.status, found.code, found.message, { 'www-authenticate': 'Bearer' });
      }
      const token = found.token;
      seen.token = token;
      // The console's own allow-list holds for systems as for people; the token's networks narrow it further.
      if (!networkAllowed(clientAddressOf(request.headers)))
        return apiError(403, 'network_refused', NETWORK_REFUSED);
      if (token.allowedCidrs.length > 0) {
        const list = parseNetworkList(token.allowedCidrs.join(','));
        const address = clientAddressOf(request.headers);
        if (!list.ok || !addressInNetworks(address, list.ranges))
          return apiError(
            403,
            'network_refused',
            `This token may be used only from ${token.allowedCidrs.join(', ')}; this call came from ${address ?? 'an unknown address'}.`,
          );
      }
      if (route.scope && !hasScope(token, route.scope))
        return apiError(403, 'scope_missing', `This token does not have the "${route.scope}" scope.`);
      if (params.walletId !== undefined && !token.walletIds.includes(params.walletId))
        return apiError(403, 'wallet_not_allowed', 'This token may not act on this wallet.');
      const rate = await limiter.take(db, token.id, token.rateLimitPerMinute);
      if (!rate.allowed)
        return apiError(
          429,
          'rate_limited',
          `This token may make ${token.rateLimitPerMinute} calls a minute. Try again in ${rate.retryAfterSeconds} s.`,
          { 'retry-after': String(rate.retryAfterSeconds) },
        );
      await touchToken(db, token, now);
      const answer = await handler({
        token,
        actor: { id: tokenActorId(token.id), email: tokenActorName(token.name), role: 'api', requestId },
        db,
        request,
        params,
        now,
      });
      answer.headers.set('x-ratelimit-limit', String(token.rateLimitPerMinute));
      answer.headers.set('x-ratelimit-remaining', String(rate.remaining));
      return answer;
    }
  };
}
