import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// PGlite lets one process open a data directory. While the console runs it leaves this note, so the
// command-line tools ask the running server instead of opening the same directory a second time.
export interface ServerNote {
  pid: number;
  port: number;
  token: string;
}

const SERVER_NOTE = 'server.json';

export function writeServerNote(dataDir: string, port: number): ServerNote {
  const note: ServerNote = { pid: process.pid, port, token: randomBytes(32).toString('base64url') };
  const file = path.join(dataDir, SERVER_NOTE);
  writeFileSync(file, JSON.stringify(note), { mode: 0o600 });
  const cleanup = () => {
    try {
      const current = JSON.parse(readFileSync(file, 'utf8')) as ServerNote;
      if (current.pid === process.pid) rmSync(file);
    } catch {}
  };
  process.once('exit', cleanup);
  return note;
}

export function readServerNote(dataDir: string): ServerNote | null {
  const file = path.join(dataDir, SERVER_NOTE);
  if (!existsSync(file)) return null;
  try {
    const note = JSON.parse(readFileSync(file, 'utf8')) as ServerNote;
    process.kill(note.pid, 0);
    return note;
  } catch {
    return null;
  }
}

export function tokenMatches(expected: string, given: string | null): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
