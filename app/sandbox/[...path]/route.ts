// The sandbox's HTTP face at /sandbox/*: 404 unless the console runs in sandbox mode.
import { getRuntime } from '@/lib/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

async function forward(request: Request): Promise<Response> {
  const rt = await getRuntime();
  if (!rt.sandbox) {
    return Response.json(
      { statusCode: 404, message: 'The sandbox is off: this console talks to a real custody service' },
      { status: 404 },
    );
  }
  return rt.sandbox.handle(request);
}

export const GET = forward;
export const POST = forward;
export const PATCH = forward;
export const DELETE = forward;
