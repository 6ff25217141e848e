// The browser both Playwright configurations drive: Debian's Chromium (test tools cannot download browsers on
// our machines), or CHROMIUM_PATH elsewhere. Debian's chromium-headless-shell, when installed, is the headless
// mode without the full browser's window machinery: the same Blink and V8 as `chromium --headless`, for about a
// sixth less CPU over a journey on a 2-core machine (the suite's end-to-end tests are CPU-bound there).
import { existsSync } from 'node:fs';

/** Debian's full Chromium: what Lighthouse (bench/lighthouse.ts) measures, as a person's browser. */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * The journeys' browser: as above, with V8's optimizing compilers off (the interpreter and its baseline compiler
 * only). A journey's page lives for seconds, too short for optimized code to pay for its compiling: measured over
 * 25 journeys, the renderers did a fifth less work, and the run was as long. The benchmarks keep a person's
 * browser (`chromiumLaunchOptions`).
 */
export const journeyLaunchOptions = {
  ...chromiumLaunchOptions,
  args: [...chromiumLaunchOptions.args, '--js-flags=--max-opt=1'],
};
