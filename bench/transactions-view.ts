// The 50,000-row transactions view in Chromium: a production server whose sandbox seeded the Treasury wallet with
// 50,000 transactions (SANDBOX_SEED_TRANSACTIONS), a viewer signed in through the sign-in form, the wallet's
// transactions page at the default page size and at the largest one. Sort and filter run on the server (URL
// state through nuqs, TanStack Query refetch), so each is timed from the input event to the first frame after
// the rows stand in the new order, round trip included, once the page's own requests are over (in the page:
// the event's timestamp, a MutationObserver, then requestAnimationFrame and a message for the paint).
// Scrolling is read from a Chromium trace (CDP Tracing, devtools.timeline): the longest task on the page's main
// thread while the loaded rows scroll by.
import { rmSync } from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/browser';
import { buildMissing, median, sandboxWallets, startServer } from './server';

const SEEDED = Number(process.env.BENCH_ROWS_SEED ?? 50_000);
const RUNS = Number(process.env.BENCH_ROWS_RUNS ?? 5);
/** The view's default page size and its largest (the one that virtualizes). */
const PAGE_SIZES = (process.env.BENCH_ROWS_PAGE_SIZES ?? '50,1000').split(',').map(Number);
const BUDGET = { sortMs: 100, filterMs: 100, longTaskMs: 50 };
/** Pixels scrolled per frame: a quick flick through the loaded rows. */
const SCROLL_STEP = 240;

const round = (n: number) => Number(n.toFixed(1));
const verdict = (value: number, budget: number) => (value < budget ? 'met' : 'NOT met');

/** What the rows must show once the view has answered. */
type Expectation = { kind: 'sorted-by-amount-desc' } | { kind: 'status'; status: string };

interface Timing {
  /** Input event to the DOM holding the new rows. */
  rowsMs: number;
  /** Input event to the first frame after that. */
  paintMs: number;
}

/**
 * Arms the page: the next `event` (capture phase, so before React) starts the clock, and the first DOM change
 * after which the table is settled and meets `expect` stops it. Read the result with `settled`.
 */
async function arm(page: Page, event: 'click' | 'change', expectation: Expectation) {
  await page.evaluate(
    ({ event, expectation }) => {
      const w = window as unknown as { __benchTiming?: Promise<unknown> };
      w.__benchTiming = new Promise((resolve, reject) => {
        let start: number | null = null;
        const amountOf = (label: string) => {
          const m = / of (-?[\d,]+(?:\.\d+)?)[ ,]/.exec(label);
          return m?.[1] ? Number(m[1].replaceAll(',', '')) : Number.NaN;
        };
        const ready = () => {
          const table = document.querySelector('table[aria-label="Transactions"]');
          if (!table || table.getAttribute('aria-busy') === 'true') return false;
          const labels = [...table.querySelectorAll('tbody tr[aria-label]')]
            .slice(0, 20)
            .map((r) => r.getAttribute('aria-label') ?? '');
          if (labels.length < 2) return false;
          if (expectation.kind === 'status')
            return labels.every((l) => l.includes(`, ${expectation.status}, `));
          const header = [...table.querySelectorAll('th')].find((th) => th.textContent?.trim() === 'Amount');
          if (header?.getAttribute('aria-sort') !== 'descending') return false;
          const amounts = labels.map(amountOf);
          return amounts.every((a, i) => i === 0 || a <= amounts[i - 1]!);
        };
        const observer = new MutationObserver(() => {
          if (start === null || !ready()) return;
          observer.disconnect();
          const rows = performance.now();
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () =>
              resolve({ rowsMs: rows - (start ?? 0), paintMs: performance.now() - (start ?? 0) });
            channel.port2.postMessage(null);
          });
        });
        document.addEventListener(
          event,
          (e) => {
            start ??= e.timeStamp;
          },
          { capture: true, once: true },
        );
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        setTimeout(() => {
          observer.disconnect();
          const table = document.querySelector('table[aria-label="Transactions"]');
          const first = table?.querySelector('tbody tr[aria-label]')?.getAttribute('aria-label');
          reject(
            new Error(
              `no answer in 30 s (input seen: ${start !== null}, busy: ${table?.getAttribute('aria-busy')}, first row: ${first}, url: ${location.search})`,
            ),
          );
        }, 30_000);
      });
    },
    { event, expectation },
  );
}

async function settled(page: Page): Promise<Timing> {
  return (await page.evaluate(
    () => (window as unknown as { __benchTiming: Promise<unknown> }).__benchTiming,
  )) as Timing;
}

async function openView(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('table', { name: 'Transactions' }).locator('tbody tr[aria-label]').first().waitFor();
  // The live indicator connects only from the hydrated shell: before that a click would be lost.
  await page
    .getByRole('status', { name: /Live updates/ })
    .getByText('Live', { exact: true })
    .waitFor();
  // After load the page's own reads finish; a person reads the page first. Wait until no request has started
  // for half a second (the live stream stays open, so no "network idle" to wait for).
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __benchSeen?: { count: number; at: number } };
      const count = performance.getEntriesByType('resource').length;
      if (w.__benchSeen?.count !== count) w.__benchSeen = { count, at: performance.now() };
      return performance.now() - w.__benchSeen.at > 500;
    },
    undefined,
    { polling: 100, timeout: 30_000 },
  );
}

async function sortOnce(page: Page, url: string): Promise<Timing> {
  await openView(page, url);
  await arm(page, 'click', { kind: 'sorted-by-amount-desc' });
  await page
    .getByRole('table', { name: 'Transactions' })
    .getByRole('columnheader', { name: 'Amount' })
    .getByRole('button')
    .click();
  return settled(page);
}

async function filterOnce(page: Page, url: string): Promise<Timing> {
  await openView(page, url);
  await arm(page, 'change', { kind: 'status', status: 'FAILED' });
  await page.getByLabel('Status', { exact: true }).selectOption('FAILED');
  return settled(page);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/** Scrolls the loaded rows top to bottom, one step a frame, under a trace; the longest main-thread task. */
async function scrollOnce(browser: Browser, page: Page, url: string) {
  await openView(page, url);
  await page.waitForTimeout(500);
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  const scrolled = await page.evaluate(async (step) => {
    const table = document.querySelector('table[aria-label="Transactions"]');
    const box = table?.closest('section');
    // A virtualized page scrolls in its own box; a short one scrolls the document.
    const scroller =
      box && box.scrollHeight > box.clientHeight + 1 ? box : (document.scrollingElement as HTMLElement);
    scroller.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(r));
    let frames = 0;
    let worstFrame = 0;
    let last = performance.now();
    await new Promise<void>((resolve) => {
      const tick = (t: number) => {
        frames++;
        worstFrame = Math.max(worstFrame, t - last);
        last = t;
        const before = scroller.scrollTop;
        scroller.scrollTop = before + step;
        if (scroller.scrollTop === before) resolve();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    return { frames, worstFrame, distance: scroller.scrollTop };
  }, SCROLL_STEP);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(
    trace.traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = trace.traceEvents
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && mainThreads.has(`${e.pid}:${e.tid}`))
    .map((e) => (e.dur ?? 0) / 1000);
  return {
    longestTaskMs: Math.max(0, ...tasks),
    over50: tasks.filter((d) => d > BUDGET.longTaskMs).length,
    worstFrameMs: scrolled.worstFrame,
    distance: scrolled.distance,
  };
}

export async function transactionsViewBench(): Promise<Record<string, number | string>> {
  const missing = buildMissing();
  if (missing) return { skipped: missing };
  const seedStarted = performance.now();
  // Seeding 50,000 rows with their indexes takes a while on a busy machine.
  const server = await startServer({
    env: { SANDBOX_SEED_TRANSACTIONS: String(SEEDED) },
    readyWithinMs: 600_000,
  });
  const readySeconds = (performance.now() - seedStarted) / 1000;
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const wallet = sandboxWallets(server.dataDir)[0];
    if (!wallet) throw new Error('the sandbox seeded no wallet');
    const context = await browser.newContext({
      baseURL: server.origin,
      viewport: { width: 1280, height: 800 },
    });
    // tsx compiles this file with esbuild's keepNames: functions handed to page.evaluate call its `__name`.
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    const page = await context.newPage();
    // The real sign-in form, as a person uses it (the viewer has no second factor).
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill('viewer@example.com');
    await page.getByLabel('Password').fill('custody-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: /User menu/ }).waitFor();

    const table: Record<string, number | string> = {
      'seeded transactions (Treasury wallet)': SEEDED,
      'server ready with the seed, s': round(readySeconds),
      runs: `${RUNS} (medians)`,
    };
    for (const size of PAGE_SIZES) {
      const url = `/wallets/${wallet.id}/transactions?limit=${size}`;
      // Warm-up: compiled routes, the database's caches, the custody client.
      await sortOnce(page, url);
      await filterOnce(page, url);
      const sorts: Timing[] = [];
      const filters: Timing[] = [];
      const scrolls: Array<Awaited<ReturnType<typeof scrollOnce>>> = [];
      for (let run = 0; run < RUNS; run++) {
        sorts.push(await sortOnce(page, url));
        filters.push(await filterOnce(page, url));
        scrolls.push(await scrollOnce(browser, page, url));
      }
      const sortMs = median(sorts.map((t) => t.paintMs));
      const filterMs = median(filters.map((t) => t.paintMs));
      const longest = median(scrolls.map((s) => s.longestTaskMs));
      const label = `${size} rows a page:`;
      table[`${label} sort by amount, ms`] =
        `${round(sortMs)} (rows in DOM ${round(median(sorts.map((t) => t.rowsMs)))}; budget ${BUDGET.sortMs}: ${verdict(sortMs, BUDGET.sortMs)})`;
      table[`${label} filter by status, ms`] =
        `${round(filterMs)} (rows in DOM ${round(median(filters.map((t) => t.rowsMs)))}; budget ${BUDGET.filterMs}: ${verdict(filterMs, BUDGET.filterMs)})`;
      table[`${label} scroll, longest task ms`] =
        `${round(longest)} (worst run ${round(Math.max(...scrolls.map((s) => s.longestTaskMs)))}; budget ${BUDGET.longTaskMs}: ${verdict(longest, BUDGET.longTaskMs)})`;
      table[`${label} scroll, tasks > 50 ms / worst frame ms`] =
        `${median(scrolls.map((s) => s.over50))} / ${round(median(scrolls.map((s) => s.worstFrameMs)))} over ${Math.round(scrolls[0]?.distance ?? 0)} px`;
    }
    await context.close();
    return table;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}
