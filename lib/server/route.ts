import 'server-only';
import type { z } from 'zod';
import { describeFailure } from './errors';
import { type Actor, authorize } from './guard';
import type { Action } from './permissions';

export interface RouteContext<Q> {
  actor: Actor;
  query: Q;
  request: Request;
  params: Record<string, string | string[]>;
}

/**
 * Wraps a route handler: session, permission and query validation first, then the handler;
 * typed failures become JSON with 401, 403, 422, or the upstream's status and message.
 */
export function withPermission<Q = Record<string, string>>(
  action: Action,
  handler: (ctx: RouteContext<Q>) => Promise<Response>,
  querySchema?: z.ZodType<Q>,
) {
  return async (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => {
    const authz = await authorize(action);
    if (!authz.ok)
      return Response.json({ statusCode: authz.status, message: authz.error }, { status: authz.status });
    const raw = Object.fromEntries(new URL(request.url).searchParams);
    let query = raw as unknown as Q;
    if (querySchema) {
      const parsed = querySchema.safeParse(raw);
      if (!parsed.success) {
        return Response.json(
          {
            statusCode: 422,
            message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          },
          { status: 422 },
        );
      }
      query = parsed.data;
    }
    try {
      return await handler({ actor: authz.actor, query, request, params: (await context.params) ?? {} });
    } catch (error) {
      const { message, status } = describeFailure(
        error,
        authz.actor.requestId,
        `route ${new URL(request.url).pathname}`,
      );
      return Response.json({ statusCode: status, message }, { status });
    }
  };
}
