import type { NextRequest } from 'next/server';
import { handlers } from '@/lib/server/auth';
import { clientAddressOf, NETWORK_REFUSED, networkAllowed } from '@/lib/server/client-address';

// Auth.js's own routes (session, sign-in, sign-out) answer only inside the network allow-list, whatever the proxy
// did: a stolen cookie does not read the session from outside.
function withinNetwork(handler: (request: NextRequest) => Promise<Response>) {
  return (request: NextRequest) =>
    networkAllowed(clientAddressOf(request.headers))
      ? handler(request)
      : Promise.resolve(Response.json({ statusCode: 403, message: NETWORK_REFUSED }, { status: 403 }));
}

export const GET = withinNetwork(handlers.GET);
export const POST = withinNetwork(handlers.POST);
