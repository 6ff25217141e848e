// Prints what a developer or a test needs to call the sandbox from outside (base URL, API keys, TOTP secret),
// and the demo users' authenticator-app secrets (derived from SANDBOX_SEED and the email, as the console seeds
// them). Reads the file the running console wrote: PGlite allows one process per data directory.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { demoFactors } from '@/lib/server/factors/demo';
import { requiresSecondFactor } from '@/lib/server/factors/store';
import { DEMO_USERS } from '@/lib/server/users';

const CREDENTIALS_FILE = 'sandbox-credentials.json';

function main(): number {
  const dataDir = path.resolve(process.env.CONSOLE_DATA_DIR || '.data');
  const file = path.join(dataDir, CREDENTIALS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    process.stderr.write(
      `No sandbox credentials at ${file}.\nStart the console once in sandbox mode (npm start) so the sandbox seeds itself, then run this again.\n`,
    );
    return 1;
  }
  try {
    const credentials = JSON.parse(text) as Record<string, unknown>;
    // Never against the real service: its users enrol their own factors.
    if (!process.env.CUSTODY_API_URL) {
      const seed = process.env.SANDBOX_SEED || 'custody-console-sandbox';
      credentials.demoUsers = DEMO_USERS.filter((u) => requiresSecondFactor(u.role)).map((u) => ({
        email: u.email,
        role: u.role,
        authenticators: demoFactors(seed, u.email),
      }));
    }
    process.stdout.write(`${JSON.stringify(credentials, null, 2)}\n`);
  } catch {
    process.stderr.write(`${file} is not valid JSON; delete it and start the console again (npm start).\n`);
    return 1;
  }
  return 0;
}

process.exitCode = main();
