// Per-request CSP nonce, request id and security headers; redirects signed-out people to sign-in.
// A convenience only: every server action and route handler checks the session itself.
import { type NextFetchEvent, type NextRequest, NextResponse } from 'next/server';
import { FOREIGN_ORIGIN, isForeignActionOrigin } from '@/lib/server/action-origin';
import { auth } from '@/lib/server/auth';
import { clientAddressOf, NETWORK_REFUSED, networkAllowed } from '@/lib/server/client-address';
import {
  ACTION_BODY_LIMIT_BYTES,
  BODY_TOO_LARGE,
  checkActionFormRows,
  checkActionTextBody,
} from '@/lib/validation/action-body';

const PUBLIC_PAGES = ['/sign-in', '/mailbox'];
// An invitation or reset link: the person has no session yet; the page and its actions check the token.
const PUBLIC_PREFIXES = ['/invite/'];
const SELF_GUARDED_PREFIXES = ['/api/', '/sandbox'];
// Not for people: the custody service's webhooks, the health check, the loopback-only command-line route and the
// embedded sandbox (API-key authenticated) answer whatever the network allow-list says.
const OUTSIDE_ALLOW_LIST = ['/api/webhooks/', '/api/health', '/api/internal/', '/sandbox'];

function contentSecurityPolicy(nonce: string): string {
  const dev = process.env.NODE_ENV !== 'production';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(request: NextRequest, response: NextResponse, csp: string, requestId: string) {
  response.headers.set('content-security-policy', csp);
  response.headers.set('x-request-id', requestId);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  response.headers.set('x-frame-options', 'DENY');
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=()');
  if (process.env.NODE_ENV === 'production' && request.nextUrl.protocol === 'https:') {
    response.headers.set('strict-transport-security', 'max-age=63072000; includeSubDomains');
  }
  return response;
}

/** Passes the request on with its nonce, request id and policy, for the page or handler to read. */
function passOn(request: NextRequest, nonce: string, csp: string, requestId: string) {
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('x-request-id', requestId);
  requestHeaders.set('content-security-policy', csp);
  // The console layout checks the page's permission and ids before streaming (lib/server/page-access.ts).
  requestHeaders.set('x-pathname', request.nextUrl.pathname);
  return NextResponse.next({ request: { headers: requestHeaders } });
}

function requestContext(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const requestId = request.headers.get('x-request-id') ?? crypto.randomUUID();
  return { nonce, requestId, csp: contentSecurityPolicy(nonce) };
}

const withSession = auth((request) => {
  const { nonce, requestId, csp } = requestContext(request);
  const { pathname, search } = request.nextUrl;

  let response: NextResponse;
  const isPublic = PUBLIC_PAGES.includes(pathname) || PUBLIC_PREFIXES.some((p) => pathname.startsWith(p));
  const user = request.auth?.user;
  if (!isPublic && !user) {
    const url = request.nextUrl.clone();
    url.pathname = '/sign-in';
    // Only the path survives: the origin the server sees may differ from the browser's (TOOLCHAIN.md).
    url.search = pathname === '/' ? '' : `?callbackUrl=${encodeURIComponent(pathname + search)}`;
    response = NextResponse.redirect(url);
  } else if (user?.mustChangePassword && !isPublic && pathname !== '/change-password') {
    const url = request.nextUrl.clone();
    url.pathname = '/change-password';
    url.search = '';
    response = NextResponse.redirect(url);
  } else {
    response = passOn(request, nonce, csp, requestId);
  }
  return securityHeaders(request, response, csp, requestId);
});

/**
 * The network allow-list (CONSOLE_ALLOWED_CIDRS) answered before anything else: a page for people, JSON for
 * routes and actions. A convenience like the rest of the proxy: actions, routes and pages check it themselves.
 */
function networkRefusal(request: NextRequest): NextResponse | null {
  const { pathname } = request.nextUrl;
  if (OUTSIDE_ALLOW_LIST.some((p) => pathname.startsWith(p))) return null;
  if (networkAllowed(clientAddressOf(request.headers))) return null;
  const { requestId, csp } = requestContext(request);
  const wantsJson = pathname.startsWith('/api/') || request.headers.has('next-action');
  const response = wantsJson
    ? NextResponse.json({ statusCode: 403, message: NETWORK_REFUSED }, { status: 403 })
    : new NextResponse(networkRefusedPage(), {
        status: 403,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
  return securityHeaders(request, response, csp, requestId);
}

function networkRefusedPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not available from this network</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.5rem">Custody Console</h1><p>${NETWORK_REFUSED}</p><p>Connect from one of your organisation's networks, or ask an administrator to add yours.</p></body></html>`;
}

/**
 * A server action's origin and body, checked before the framework decodes it: another site's origin answers 403
 * without reading the body; over the limit answers 413 from the declared length without reading it; broken JSON,
 * runaway nesting or forged references answer 400. The framework itself would answer each with a server error.
 */
async function actionRefusal(request: NextRequest): Promise<NextResponse | null> {
  if (request.method !== 'POST') return null;
  const type = request.headers.get('content-type') ?? '';
  const multipart = type.startsWith('multipart/form-data');
  const isAction =
    request.headers.has('next-action') ||
    ((multipart || type.startsWith('application/x-www-form-urlencoded')) &&
      !SELF_GUARDED_PREFIXES.some((p) => request.nextUrl.pathname.startsWith(p)));
  if (!isAction) return null;
  const answer = (status: number, message: string) => {
    const { requestId, csp } = requestContext(request);
    const response = new NextResponse(message, {
      status,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    return securityHeaders(request, response, csp, requestId);
  };
  if (isForeignActionOrigin(request.headers)) return answer(403, FOREIGN_ORIGIN);
  if (Number(request.headers.get('content-length') ?? '0') > ACTION_BODY_LIMIT_BYTES)
    return answer(413, BODY_TOO_LARGE);
  if (!request.headers.has('next-action')) return null;
  const bytes = await request.clone().arrayBuffer();
  if (bytes.byteLength > ACTION_BODY_LIMIT_BYTES) return answer(413, BODY_TOO_LARGE);
  let verdict: ReturnType<typeof checkActionTextBody>;
  if (multipart) {
    const form = await new Response(bytes, { headers: { 'content-type': type } })
      .formData()
      .catch(() => null);
    const rows: Array<[string, string]> = [];
    form?.forEach((value, name) => {
      if (typeof value === 'string') rows.push([name, value]);
    });
    verdict = form ? checkActionFormRows(rows) : checkActionTextBody('');
  } else {
    verdict = checkActionTextBody(new TextDecoder().decode(bytes));
  }
  return verdict.ok ? null : answer(verdict.status, verdict.message);
}

// With a lazily built configuration, next-auth's wrapper resolves to the handler asynchronously.
export async function proxy(request: NextRequest, event: NextFetchEvent) {
  const refused = networkRefusal(request) ?? (await actionRefusal(request));
  if (refused) return refused;
  // Route handlers under /api and the sandbox check the session (or API key) themselves: no session work here.
  // Nor for a router prefetch (a page shows a score of links, each prefetched): it gets the headers and limits
  // above, and its render checks the session itself; the navigation that follows refreshes the session.
  if (
    SELF_GUARDED_PREFIXES.some((p) => request.nextUrl.pathname.startsWith(p)) ||
    request.headers.has('next-router-prefetch')
  ) {
    const { nonce, requestId, csp } = requestContext(request);
    return securityHeaders(request, passOn(request, nonce, csp, requestId), csp, requestId);
  }
  const handler = (await withSession) as unknown as (r: NextRequest, e: NextFetchEvent) => Promise<Response>;
  return handler(request, event);
}

// Every request but static files, prefetches included: a request header must never switch off the headers, the
// size and shape limits or the network allow-list.
export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)'],
};
