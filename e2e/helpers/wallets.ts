import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';

export interface SandboxWallet {
  id: string;
  name: string;
  apiKey: string;
  address: string;
  blockchain: string;
  network: string;
  assets: Array<{ id: string; assetId: string; symbol: string; decimals: number }>;
  addresses: Array<{
    id: string;
    address: string;
    type: string;
    name: string | null;
    disableAutoSweep: boolean;
  }>;
}

/** The sandbox's wallets, ids and keys, as the e2e server wrote them at start-up. */
export function sandboxWallets(): SandboxWallet[] {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (run through playwright.config.ts)');
  const file = JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')) as {
    wallets: SandboxWallet[];
  };
  return file.wallets;
}

export function sandboxWallet(namePrefix: string): SandboxWallet {
  const wallet = sandboxWallets().find((w) => w.name.startsWith(namePrefix));
  if (!wallet) throw new Error(`No sandbox wallet named ${namePrefix}…`);
  return wallet;
}

export function sandboxAddress(wallet: SandboxWallet, name: string) {
  const address = wallet.addresses.find((a) => a.name === name);
  if (!address) throw new Error(`No address ${name} in ${wallet.name}`);
  return address;
}

/** Resolves with the next server-action POST the page makes (its `next-action` id and router state). */
export function nextActionRequest(page: Page): Promise<Request> {
  return page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
}
