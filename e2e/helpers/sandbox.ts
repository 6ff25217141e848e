import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface SandboxWallet {
  id: string;
  name: string;
  apiKey: string;
  address: string;
  blockchain: string;
  network: string;
  assets: Array<{ id: string; assetId: string; symbol: string; decimals: number; address: string }>;
  addresses: Array<{
    id: string;
    address: string;
    type: string;
    name: string | null;
    disableAutoSweep: boolean;
  }>;
  beneficiaries: Array<{ id: string }>;
}

export interface SandboxCredentials {
  baseUrl: string;
  totpSecret: string;
  wallets: SandboxWallet[];
}

/** What the running e2e server's sandbox wrote at seed time (npm run sandbox:credentials reads the same file). */
export function sandboxCredentials(): SandboxCredentials {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')) as SandboxCredentials;
}

export function sandboxWallet(name: RegExp): SandboxWallet {
  const wallet = sandboxCredentials().wallets.find((w) => name.test(w.name));
  if (!wallet) throw new Error(`no sandbox wallet matches ${name}`);
  return wallet;
}

/** A random EVM address in lowercase, as a person might paste it. */
export function randomAddress(): string {
  let hex = '';
  for (let i = 0; i < 40; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `0x${hex}`;
}
