// A production server for the figures that need one: `next start` from the build in NEXT_DIST_DIR (or `.next`),
// in its own process group so stopping it stops `next-server` too.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const distDir = process.env.NEXT_DIST_DIR || '.next';

/** Null when there is a build to start, else the sentence to print. */
export function buildMissing(): string | null {
  if (existsSync(path.join(distDir, 'BUILD_ID'))) return null;
  return `no production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} node_modules/.bin/next build\` first`;
}

interface StartedServer {
  origin: string;
  dataDir: string;
  /** Milliseconds from spawn to the first HTTP answer of any kind (health 503 included). */
  firstAnswerMs: number;
  /** Milliseconds from spawn to `/api/health` answering 200. */
  readyMs: number;
  /** Milliseconds from spawn to a static file answering 200. */
  staticMs: number;
  stop(): Promise<void>;
}

let nextPort = Number(process.env.BENCH_PORT ?? 3250);

async function answer(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

/** Starts a server on a data directory (a new one unless given) and waits for it to be ready. */
export async function startServer(
  options: { dataDir?: string; env?: Record<string, string>; readyWithinMs?: number } = {},
) {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'bench-console-'));
  const port = nextPort++;
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const nextBin = createRequire(path.resolve('package.json')).resolve('next/dist/bin/next');
  const child: ChildProcess = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: '1',
      CONSOLE_DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SANDBOX_WEBHOOK_URL: `${origin}/api/webhooks/custody`,
      ...options.env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (exited || !child.pid) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await gone;
  };
  let firstAnswerMs = Number.NaN;
  let staticMs = Number.NaN;
  let readyMs = Number.NaN;
  const readyWithinMs = options.readyWithinMs ?? 120_000;
  const deadline = started + readyWithinMs;
  while (Number.isNaN(readyMs)) {
    if (exited) throw new Error(`the server stopped while starting:\n${stderr.slice(-2000)}`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the server was not ready within ${readyWithinMs / 1000} s`);
    }
    const [health, icon] = await Promise.all([answer(`${origin}/api/health`), answer(`${origin}/icon.svg`)]);
    const now = performance.now() - started;
    if (health !== null && Number.isNaN(firstAnswerMs)) firstAnswerMs = now;
    if (icon === 200 && Number.isNaN(staticMs)) staticMs = now;
    if (health === 200) readyMs = now;
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { origin, dataDir, firstAnswerMs, readyMs, staticMs, stop } satisfies StartedServer;
}

/** Signs in through the credentials form's endpoint and returns the Cookie header of the session. */
export async function signIn(origin: string, email: string, password: string): Promise<string> {
  const csrfRes = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  keep(csrfRes);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${origin}/` }),
  });
  await res.arrayBuffer();
  keep(res);
  if (![...jar.keys()].some((k) => k.includes('session-token'))) {
    throw new Error(`signing in as ${email} failed (status ${res.status})`);
  }
  return cookie();
}

export interface SandboxWallet {
  id: string;
  apiKey: string;
}

export function sandboxWallets(dataDir: string): SandboxWallet[] {
  const file = path.join(dataDir, 'sandbox-credentials.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { wallets: SandboxWallet[] }).wallets;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Latencies of `total` requests issued `concurrency` at a time; every answer must have `status`. */
export async function measure(
  total: number,
  concurrency: number,
  request: () => Promise<Response>,
  status = 200,
): Promise<{ p50: number; p95: number }> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== status) throw new Error(`${res.url} answered ${res.status}, expected ${status}`);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}
