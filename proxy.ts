// Per-request CSP nonce, request id and security headers; redirects signed-out people to sign-in.
// A convenience only: every server action and route handler checks the session itself.
import { type NextFetchEvent, type NextRequest, NextResponse } from 'next/server';
import { auth } from '@/lib/server/auth';

const PUBLIC_PAGES = ['/sign-in'];
const SELF_GUARDED_PREFIXES = ['/api/', '/sandbox'];

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
  const isPublic = PUBLIC_PAGES.includes(pathname);
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

// With a lazily built configuration, next-auth's wrapper resolves to the handler asynchronously.
export async function proxy(request: NextRequest, event: NextFetchEvent) {
  // Route handlers under /api and the sandbox check the session (or API key) themselves: no session work here.
  if (SELF_GUARDED_PREFIXES.some((p) => request.nextUrl.pathname.startsWith(p))) {
    const { nonce, requestId, csp } = requestContext(request);
    return securityHeaders(request, passOn(request, nonce, csp, requestId), csp, requestId);
  }
  const handler = (await withSession) as unknown as (r: NextRequest, e: NextFetchEvent) => Promise<Response>;
  return handler(request, event);
}

export const config = {
  matcher: [
    {
      source: '/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)',
      missing: [{ type: 'header', key: 'next-router-prefetch' }],
    },
  ],
};
