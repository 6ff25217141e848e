// Lighthouse figure: the overview, a wallet's transactions and the approvals queue, signed in, on a production
// server. Lighthouse's default mobile run (simulated slow 4G, 4x CPU slowdown), performance only; medians of
// BENCH_LIGHTHOUSE_RUNS runs per page, each beside its budget, plus the page's HTML and the JavaScript it loads.
// BENCH_LIGHTHOUSE_REPORTS=<dir> keeps each run's Lighthouse report (JSON) there.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { demoTotpSecret } from '@/lib/server/factors/demo';
import { totpCodeAt } from '@/lib/server/factors/totp';
import { chromiumLaunchOptions, FULL_CHROMIUM } from '../e2e/browser';
import { buildMissing, median, sandboxWallets, startServer } from './server';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
const CHROMIUM = FULL_CHROMIUM;
const CHROMIUM_FLAGS = ['--headless=new', ...chromiumLaunchOptions.args];
const BUDGET = { score: 95, lcpMs: 2500, tbtMs: 150 };
// Approvals need withdraw.approve: a finance demo user, whose sign-in asks for a code after the password.
const USER = { email: 'finance@example.com', password: 'custody-demo' };

interface Browser {
  port: number;
  stop(): Promise<void>;
}

/** Debian's Chromium with the flags above and a DevTools port, in its own process group and profile. */
async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited && child.pid) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await gone;
    }
    rmSync(profile, { recursive: true, force: true });
  };
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium did not start:\n${stderr.slice(-2000)}`)),
      30_000,
    );
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
    child.once('exit', () => reject(new Error(`Chromium stopped:\n${stderr.slice(-2000)}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { port, stop };
}

/** Signs in through the sign-in form (password, then an authenticator code) and returns the Cookie header. */
async function signInWithForm(port: number, origin: string): Promise<string> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/sign-in`);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const seed = process.env.SANDBOX_SEED || 'custody-console-sandbox';
    await page
      .getByLabel('Authentication code')
      .fill(totpCodeAt(demoTotpSecret(seed, USER.email), Date.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: /User menu/ }).waitFor({ timeout: 30_000 });
    const cookies = await context.cookies(origin);
    if (!cookies.some((c) => c.name.includes('session-token')))
      throw new Error('no session cookie after sign-in');
    return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  } finally {
    await context.close();
    await browser.close();
  }
}

interface Sample {
  score: number;
  lcpMs: number;
  tbtMs: number;
  htmlKb: number;
  htmlTransferKb: number;
  jsTransferKb: number;
  /** Lighthouse's measure of how fast this machine ran at that moment (higher is faster; ~1000+ is a quiet desktop). */
  benchmarkIndex: number;
}

async function audit(url: string, port: number, cookie: string, report: string): Promise<Sample> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    extraHeaders: { Cookie: cookie },
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (REPORTS) {
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(path.join(REPORTS, `${report}.json`), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const score = lhr.categories.performance?.score;
  if (score === null || score === undefined) throw new Error(`Lighthouse scored nothing on ${url}`);
  if (new URL(lhr.finalDisplayedUrl).pathname.startsWith('/sign-in')) {
    throw new Error(`${url} went to the sign-in page: the session was not accepted`);
  }
  type Request = { url: string; resourceType?: string; transferSize?: number; resourceSize?: number };
  const items = ((lhr.audits['network-requests']?.details as { items?: Request[] } | undefined)?.items ??
    []) as Request[];
  const documentRequest = items.find((r) => r.resourceType === 'Document' && r.url === lhr.finalDisplayedUrl);
  const kb = (bytes: number) => bytes / 1024;
  return {
    score: Math.round(score * 100),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    htmlKb: kb(documentRequest?.resourceSize ?? Number.NaN),
    htmlTransferKb: kb(documentRequest?.transferSize ?? Number.NaN),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    jsTransferKb: kb(
      items.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    ),
  };
}

const verdict = (met: boolean) => (met ? 'met' : 'not met');

export async function lighthouseBench(): Promise<Record<string, number | string>> {
  const missing = buildMissing();
  if (missing) return { skipped: missing };
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    const { origin } = server;
    const wallet = sandboxWallets(server.dataDir)[0];
    if (!wallet) throw new Error('the sandbox seeded no wallet');
    const pages: Array<[string, string]> = [
      ['overview', '/'],
      ['transactions', `/wallets/${wallet.id}/transactions`],
      ['approvals', '/approvals'],
    ];
    browser = await launchChromium();
    const cookie = await signInWithForm(browser.port, origin);
    // Warm-up: each page once, so no run pays for the server's first render of a route.
    for (const [, pathname] of pages) {
      const res = await fetch(`${origin}${pathname}`, { headers: { cookie } });
      await res.arrayBuffer();
    }
    const table: Record<string, number | string> = {
      'runs per page (medians), user': `${RUNS}, ${USER.email}`,
      'budget (each page)': `score >= ${BUDGET.score}, LCP <= ${BUDGET.lcpMs} ms, TBT <= ${BUDGET.tbtMs} ms`,
    };
    const loadBefore = loadavg()[0]!;
    let allMet = true;
    for (const [name, pathname] of pages) {
      const samples: Sample[] = [];
      for (let run = 0; run < RUNS; run++) {
        samples.push(await audit(`${origin}${pathname}`, browser.port, cookie, `${name}-${run + 1}`));
      }
      const of = (key: keyof Sample) => median(samples.map((s) => s[key]));
      const [score, lcp, tbt] = [of('score'), of('lcpMs'), of('tbtMs')];
      const met = { score: score >= BUDGET.score, lcp: lcp <= BUDGET.lcpMs, tbt: tbt <= BUDGET.tbtMs };
      if (!met.score || !met.lcp || !met.tbt) allMet = false;
      table[`${name} performance score`] = `${score} (budget ${BUDGET.score}: ${verdict(met.score)})`;
      table[`${name} LCP ms`] = `${Math.round(lcp)} (budget ${BUDGET.lcpMs}: ${verdict(met.lcp)})`;
      table[`${name} TBT ms`] = `${Math.round(tbt)} (budget ${BUDGET.tbtMs}: ${verdict(met.tbt)})`;
      table[`${name} HTML kB (decoded / sent)`] =
        `${of('htmlKb').toFixed(1)} / ${of('htmlTransferKb').toFixed(1)}`;
      table[`${name} JavaScript sent kB`] = of('jsTransferKb').toFixed(1);
      table[`${name} scores of the runs`] = samples.map((s) => s.score).join(', ');
      table[`${name} CPU benchmark index (median)`] = Math.round(of('benchmarkIndex'));
    }
    table['budget (every page)'] = verdict(allMet);
    // Lighthouse scales the CPU time it observes: a busy machine inflates TBT (and so the score).
    table['load average (1 min) before / after'] = `${loadBefore.toFixed(1)} / ${loadavg()[0]!.toFixed(1)}`;
    return table;
  } finally {
    await browser?.stop();
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
