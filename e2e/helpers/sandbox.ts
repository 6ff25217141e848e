// The sandbox as an outside client sees it: the credentials the e2e server wrote at seed time, and its
// HTTP API called with a wallet's own key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { SandboxCredentials } from '@/lib/sandbox';

export type { SandboxCredentials };
export type SandboxWallet = SandboxCredentials['wallets'][number];

/** What `npm run sandbox:credentials` prints, read from the e2e server's data directory. */
export function sandboxCredentials(): SandboxCredentials {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')) as SandboxCredentials;
}

function sandboxWallets(): SandboxWallet[] {
  return sandboxCredentials().wallets;
}

/** A wallet by the start of its name ("Treasury", "Payouts", "Collections") or a pattern. */
export function sandboxWallet(name: string | RegExp): SandboxWallet {
  const wallet = sandboxWallets().find((w) =>
    typeof name === 'string' ? w.name.startsWith(name) : name.test(w.name),
  );
  if (!wallet) throw new Error(`no sandbox wallet named ${String(name)}`);
  return wallet;
}

export function sandboxAddress(wallet: SandboxWallet, name: string) {
  const address = wallet.addresses.find((a) => a.name === name);
  if (!address) throw new Error(`No address ${name} in ${wallet.name}`);
  return address;
}

/** A random EVM address in lowercase, as a person might paste it: nobody was paid there before. */
export function randomAddress(): string {
  let hex = '';
  for (let i = 0; i < 40; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `0x${hex}`;
}

export async function sandboxCall<T = Record<string, unknown>>(
  request: APIRequestContext,
  wallet: SandboxWallet,
  method: 'GET' | 'POST',
  pathname: string,
  body?: unknown,
): Promise<{ status: number; json: { data: T; message: string } }> {
  const send = () =>
    request.fetch(`/sandbox${pathname}`, {
      method,
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      data: body === undefined ? undefined : JSON.stringify(body),
    });
  // A kept-alive connection the server closed as the read was sent resets it; a read is safe to send again.
  const res = await send().catch((error: unknown) => {
    if (method === 'GET' && /ECONNRESET/.test(String(error))) return send();
    throw error;
  });
  return { status: res.status(), json: (await res.json()) as { data: T; message: string } };
}

export interface SandboxTransaction {
  id: string;
  status: string;
  type: string;
  reference: string;
}

export async function simulateDeposit(
  request: APIRequestContext,
  wallet: SandboxWallet,
  addressId: string,
  amount: string,
) {
  const asset = wallet.assets[0]!;
  const res = await sandboxCall<SandboxTransaction>(request, wallet, 'POST', '/control/deposits', {
    addressId,
    assetId: asset.id,
    amount,
  });
  if (res.status !== 200) throw new Error(`deposit refused: ${JSON.stringify(res.json)}`);
  return res.json.data;
}

export async function transactionStatus(
  request: APIRequestContext,
  wallet: SandboxWallet,
  id: string,
): Promise<string> {
  const res = await sandboxCall<SandboxTransaction>(
    request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions/${id}`,
  );
  return res.json.data.status;
}
