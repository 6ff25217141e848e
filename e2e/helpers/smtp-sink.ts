// A real SMTP server for the end-to-end run, started once in Playwright's main process (workers load the config
// again and must not start a second): the console's SMTP_URL points at it, and each message it receives is written
// as a JSON file under the run's data directory, where the journeys read the invitations people were sent.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const STARTED = Symbol.for('custody-console.e2e-smtp-sink');

export const mailDirOf = (dataDir: string) => path.join(dataDir, 'mail');

/** Starts the sink on `port` (once per process) and returns its SMTP URL. */
export function startSmtpSink(dataDir: string, port: number): string {
  const holder = globalThis as { [STARTED]?: boolean };
  const url = `smtp://127.0.0.1:${port}`;
  if (holder[STARTED]) return url;
  holder[STARTED] = true;
  const dir = mailDirOf(dataDir);
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: new Date().toISOString(),
        };
        count += 1;
        // Written whole, then renamed: a reader never sees half a message.
        const name = `${Date.now()}-${String(count).padStart(6, '0')}`;
        writeFileSync(path.join(dir, `${name}.tmp`), JSON.stringify(message));
        renameSync(path.join(dir, `${name}.tmp`), path.join(dir, `${name}.json`));
        done();
      });
    },
  });
  server.on('error', (error) => console.error(`e2e SMTP sink on port ${port}: ${error.message}`));
  server.listen(port, '127.0.0.1');
  // The run ends when the tests do, whatever the sink is doing.
  server.server.unref();
  return url;
}
