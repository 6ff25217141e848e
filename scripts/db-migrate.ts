// npm run db:migrate: applies the console's migrations (the server also applies them at start-up).
import { fail, openCliTarget } from './cli-database';

async function main() {
  const target = await openCliTarget();
  if (target.kind === 'server') {
    process.stdout.write('The console is running and applied its migrations at start-up.\n');
    return;
  }
  await target.handle.close();
  process.stdout.write(`Migrations applied (${target.handle.kind}).\n`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
