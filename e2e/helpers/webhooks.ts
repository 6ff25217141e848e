// Sandbox access for the webhook and live-update journeys: credentials written by the e2e server, and
// the sandbox's HTTP API called with a wallet's own key (as an outside client would).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page, Request } from '@playwright/test';

export interface SandboxWallet {
  id: string;
  name: string;
  apiKey: string;
  network: string;
  assets: Array<{ id: string; assetId: string; symbol: string; decimals: number; address: string }>;
  addresses: Array<{
    id: string;
    address: string;
    type: string;
    name: string | null;
    disableAutoSweep: boolean;
  }>;
}

export function sandboxWallets(): SandboxWallet[] {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (run through playwright.config.ts)');
  const creds = JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')) as {
    wallets: SandboxWallet[];
  };
  return creds.wallets;
}

export function walletNamed(prefix: string): SandboxWallet {
  const wallet = sandboxWallets().find((w) => w.name.startsWith(prefix));
  if (!wallet) throw new Error(`no sandbox wallet named ${prefix}…`);
  return wallet;
}

export async function sandboxCall<T = Record<string, unknown>>(
  request: APIRequestContext,
  wallet: SandboxWallet,
  method: 'GET' | 'POST',
  pathname: string,
  body?: unknown,
): Promise<{ status: number; json: { data: T; message: string } }> {
  const res = await request.fetch(`/sandbox${pathname}`, {
    method,
    headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
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

/** The next server action POST of the page (its `next-action` id can then be replayed by another role). */
export function nextServerAction(page: Page): Promise<Request> {
  return page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
}

export async function replayServerAction(
  request: APIRequestContext,
  pagePath: string,
  captured: Request,
  args: unknown[],
) {
  const answer = await request.post(pagePath, {
    headers: {
      'next-action': captured.headers()['next-action']!,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      'next-router-state-tree': captured.headers()['next-router-state-tree'] ?? '',
    },
    data: JSON.stringify(args),
  });
  return answer.text();
}
