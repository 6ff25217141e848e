// The emails the console sent during the run, as the person's mailbox would show them: the run's SMTP server
// (helpers/smtp-sink.ts) writes each one under E2E_DATA_DIR/mail.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { mailDirOf } from './smtp-sink';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Quoted-printable as mail clients undo it: soft line breaks and escaped bytes. */
function decode(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Every message to `email`, oldest first. */
function mailsTo(email: string): ReceivedMail[] {
  const dir = mailDirOf(process.env.E2E_DATA_DIR ?? '');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {}
  return names
    .sort()
    .map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as { to: string[]; raw: string })
    .filter((m) => m.to.includes(email.toLowerCase()))
    .map((m) => {
      const text = decode(m.raw);
      return { to: m.to, subject: text.match(/^Subject: (.*)$/m)?.[1]?.trim() ?? '', text };
    });
}

const LINK = /https?:\/\/[^\s]+\/invite\/([A-Za-z0-9_-]{43})/;

/**
 * Waits for the `nth` (1-based) link emailed to `email` and returns it with its token (the part of the link that
 * must appear nowhere but in the person's mailbox and their own page).
 */
export async function waitForLink(
  email: string,
  nth = 1,
): Promise<{ link: string; token: string; mail: ReceivedMail }> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(email).filter((m) => LINK.test(m.text))[nth - 1];
        return Boolean(found);
      },
      { message: `an email with a link to ${email}`, timeout: 30_000 },
    )
    .toBe(true);
  const match = found!.text.match(LINK)!;
  return { link: match[0], token: match[1]!, mail: found! };
}
