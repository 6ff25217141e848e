// Runs once when the server starts: validates the configuration, migrates, seeds, starts the sandbox.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ConfigError } = await import('@/lib/config/env');
  try {
    const { getRuntime } = await import('@/lib/server/runtime');
    await getRuntime();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      // A bad configuration stops the server here rather than failing on the first request.
      globalThis.process.exit(1);
    }
    throw error;
  }
}
