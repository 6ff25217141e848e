import 'server-only';
// Sandbox mode without SMTP_URL: the emails the console would send (invitations, reset links) are written to a
// mailbox directory under the data directory instead, one owner-only file per message, and listed on the sandbox
// mailbox page (/mailbox) so a demo can invite people with no mail server. Never used against a real service.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type AlertMessage, messageText } from '../alerts/senders';

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  at: string;
}

const dirOf = (dataDir: string) => path.join(dataDir, 'sandbox-mailbox');

export async function deliverToSandboxMailbox(dataDir: string, to: string, message: AlertMessage) {
  const dir = dirOf(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const at = new Date();
  const id = `${at.getTime()}-${crypto.randomUUID()}`;
  const stored: MailboxMessage = {
    id,
    to,
    subject: message.subject,
    text: messageText(message),
    at: at.toISOString(),
  };
  await writeFile(path.join(dir, `${id}.json`), JSON.stringify(stored), { mode: 0o600, flag: 'wx' });
}

/** The newest messages first. */
export async function readSandboxMailbox(dataDir: string, limit = 50): Promise<MailboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dirOf(dataDir));
  } catch {
    return [];
  }
  const newest = names
    .filter((n) => n.endsWith('.json'))
    .sort((a, b) => Number.parseInt(b, 10) - Number.parseInt(a, 10) || b.localeCompare(a))
    .slice(0, limit);
  const messages = await Promise.all(
    newest.map(async (name) => {
      try {
        return JSON.parse(await readFile(path.join(dirOf(dataDir), name), 'utf8')) as MailboxMessage;
      } catch {
        return null;
      }
    }),
  );
  return messages.filter((m): m is MailboxMessage => m !== null);
}
