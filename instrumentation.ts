// Runs once when the server starts: validates the configuration, then opens the database, migrates, seeds and
// starts the sandbox in the background, so the server answers (health says "starting") while that runs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First of all: PGlite's WebAssembly compiles on background threads while the rest below loads. Only a
  // head start; the database is opened by the runtime, with the validated configuration.
  if (!process.env.DATABASE_URL) void (await import('@/lib/db/connection')).preparePglite();
  // The loopback-only internal route reads each request's socket address from here.
  const { trackPeerAddresses } = await import('@/lib/server/peer-address');
  trackPeerAddresses();
  const { ConfigError } = await import('@/lib/config/env');
  const stopOnBadConfiguration = (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      // A bad configuration stops the server here rather than failing on the first request.
      globalThis.process.exit(1);
    }
  };
  try {
    const { getConfig } = await import('@/lib/config');
    getConfig();
  } catch (error) {
    stopOnBadConfiguration(error);
    throw error;
  }
  const { getRuntime } = await import('@/lib/server/runtime');
  const { logger } = await import('@/lib/server/logger');
  getRuntime().catch((error) => {
    stopOnBadConfiguration(error);
    // Requests retry the start-up; health answers 503 meanwhile.
    logger.error({ err: { name: error?.name, message: error?.message } }, 'the console could not start');
  });
}
