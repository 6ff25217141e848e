// Prints what a developer or a test needs to call the sandbox from outside (base URL, API keys, TOTP secret).
// Reads the file the running console wrote: PGlite allows one process per data directory.
import { readFileSync } from 'node:fs';
import path from 'node:path';

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
    process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  } catch {
    process.stderr.write(`${file} is not valid JSON; delete it and start the console again (npm start).\n`);
    return 1;
  }
  return 0;
}

process.exitCode = main();
