import type { NextConfig } from 'next';
import { ACTION_BODY_LIMIT } from './lib/validation/action-body';

/**
 * The security headers every response carries, 404s and files outside the proxy's matcher included. The
 * proxy adds the per-request Content-Security-Policy (with its nonce) to everything it sees.
 */
const SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];
/** Paths the proxy never sees: static files and their 404s get a policy that allows nothing to run. */
const OUTSIDE_PROXY = ['/_next/:path*', '/favicon.ico', '/icon.svg', '/robots.txt'];
const STATIC_POLICY = { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" };

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'pg'],
  // A second build directory lets two builds of one tree coexist (NEXT_DIST_DIR); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // Behind a reverse proxy that compresses, or on the loopback (the end-to-end tests), gzip here is work for
  // nothing: CONSOLE_COMPRESS=off sends responses as they are.
  compress: process.env.CONSOLE_COMPRESS !== 'off',
  reactStrictMode: true,
  experimental: {
    authInterrupts: true,
    // Loading every route's code at start competes with opening the database on one event loop; each route
    // loads on its first request instead (start-up budget, docs/performance.md).
    preloadEntriesOnStart: false,
    // Deliberate: the largest legitimate action (a batch of 20 withdrawals, a typed-data document) stays far
    // below it. The proxy answers larger bodies with 413 before the framework reads them.
    serverActions: { bodySizeLimit: ACTION_BODY_LIMIT },
    // CI builds a clean clone once: the build's file-system cache (on by default) would be written for nothing,
    // some 30 s at the end of every build there. Local rebuilds keep it.
    ...(process.env.CI ? { turbopackFileSystemCacheForBuild: false } : {}),
  },
  async headers() {
    return [
      { source: '/:path*', headers: SECURITY_HEADERS },
      ...OUTSIDE_PROXY.map((source) => ({ source, headers: [STATIC_POLICY] })),
    ];
  },
  // Metadata (every page's title) arrives with the page, never streamed after it: every title here is a constant,
  // so blocking on it costs nothing, and a client-side navigation never shows a page without its title while the
  // rest of its stream is still open.
  htmlLimitedBots: /.*/,
  // Type-checking runs once, in `npm test` (tsc --noEmit), not again inside every build.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
