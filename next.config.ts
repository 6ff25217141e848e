import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'pg'],
  // A second build directory lets two builds of one tree coexist (NEXT_DIST_DIR); `.next` otherwise.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  experimental: { authInterrupts: true },
  // Type-checking runs once, in `npm test` (tsc --noEmit), not again inside every build.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
