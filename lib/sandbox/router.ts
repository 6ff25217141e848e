import 'server-only';
// The HTTP face: path matching, x-api-key authentication, per-key rate limit, body parsing, envelope and errors.
import type { z } from 'zod';
import { type Catalog, HttpError, type WalletRow } from './context';
import { EXTENSION_ROUTE_KEYS } from './extensions';
import { type FaultStore, faultsBody } from './faults';
import { hashApiKey } from './keys';
import type { Call, Operations, Result } from './operations';
import * as req from './requests';

type Handler = (call: Call<never>) => Promise<Result>;

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  handler: (ops: Operations, faults: FaultStore) => Handler;
  body?: z.ZodType;
  /** Summary used by the OpenAPI document. */
  summary: string;
  /** Moves money or signs: subject to the delay and lost-answer fault controls. */
  movesMoney?: true;
}

export const ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/transactions/retry',
    handler: (o) => o.retry.bind(o) as Handler,
    body: req.idBody,
    summary: '#1 Retry a failed transaction',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/transactions/webhooks/resend',
    handler: (o) => o.resendWebhook.bind(o) as Handler,
    body: req.idBody,
    summary: "#2 Resend a transaction's webhook",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/transactions',
    handler: (o) => o.listAddressTransactions.bind(o) as Handler,
    summary: "#3 List an address's transactions",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId',
    handler: (o) => o.getWallet.bind(o) as Handler,
    summary: '#4 Get a wallet',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/whitelist',
    handler: (o) => o.whitelist.bind(o) as Handler,
    body: req.whitelistBody,
    summary: '#6 Whitelist an external address',
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId',
    handler: (o) => o.getAddress.bind(o) as Handler,
    summary: '#5 Get an address',
  },
  {
    method: 'DELETE',
    pattern: '/v1/wallets/:walletId/beneficiaries/:id',
    handler: (o) => o.deleteBeneficiary.bind(o) as Handler,
    summary: '#7 Delete a beneficiary',
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/auto-settlements',
    handler: (o) => o.getAutoSettlement.bind(o) as Handler,
    summary: '#8 Get wallet auto-settlement',
  },
  {
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId/auto-settlements',
    handler: (o) => o.patchAutoSettlement.bind(o) as Handler,
    body: req.autoSettlementPatchBody,
    summary: '#9 Enable or disable wallet auto-settlement',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules',
    handler: (o) => o.createRule.bind(o) as Handler,
    body: req.ruleCreateBody,
    summary: '#10 Create an address auto-settlement rule',
  },
  {
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules/:id',
    handler: (o) => o.updateRule.bind(o) as Handler,
    body: req.ruleUpdateBody,
    summary: '#11 Update an address auto-settlement rule',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw',
    handler: (o) => o.withdrawMaster.bind(o) as Handler,
    body: req.withdrawBody,
    summary: '#12 Withdraw from the master wallet',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/withdraw',
    handler: (o) => o.withdrawAddress.bind(o) as Handler,
    body: req.withdrawBody,
    summary: '#13 Withdraw from a child address',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw/sign',
    handler: (o) => o.withdrawSign.bind(o) as Handler,
    body: req.withdrawBody,
    summary: '#14 Sign withdrawals without broadcasting',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/withdraw/network-fee',
    handler: (o) => o.withdrawNetworkFee.bind(o) as Handler,
    body: req.feeBody,
    summary: '#15 Estimate withdrawal network fees',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/write',
    handler: (o) => o.contractWrite.bind(o) as Handler,
    body: req.callsBody,
    summary: '#16 Contract write (two-factor code required)',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/write/sign',
    handler: (o) => o.contractSign.bind(o) as Handler,
    body: req.callsBody,
    summary: '#17 Contract write, sign only (two-factor code required)',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/contracts/read',
    handler: (o) => o.contractRead.bind(o) as Handler,
    body: req.callsBody,
    summary: '#18 Contract read',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/contracts/network-fee',
    handler: (o) => o.contractNetworkFee.bind(o) as Handler,
    body: req.callsBody,
    summary: '#19 Contract network fee',
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/swaps/execute',
    handler: (o) => o.swap.bind(o) as Handler,
    body: req.swapBody,
    summary: '#20 Execute a swap',
    movesMoney: true,
  },
  {
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/signing/typed-data',
    handler: (o) => o.signTypedData.bind(o) as Handler,
    body: req.typedDataBody,
    summary: '#21 Sign EIP-712 typed data',
    movesMoney: true,
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/webhooks',
    handler: (o) => o.listWebhooks.bind(o) as Handler,
    summary: '#22 List webhook logs',
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions/:id/webhooks',
    handler: (o) => o.transactionWebhooks.bind(o) as Handler,
    summary: "#23 List a transaction's webhook logs",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses',
    handler: (o) => o.listAddresses.bind(o) as Handler,
    summary: "Extension: list a wallet's addresses (search, type)",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions',
    handler: (o) => o.listWalletTransactions.bind(o) as Handler,
    summary: "Extension: list a wallet's transactions",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions/:id',
    handler: (o) => o.getTransaction.bind(o) as Handler,
    summary: 'Extension: get one transaction',
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules',
    handler: (o) => o.listRules.bind(o) as Handler,
    summary: "Extension: list an address's auto-settlement rules",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/beneficiaries',
    handler: (o) => o.listBeneficiaries.bind(o) as Handler,
    summary: "Extension: list a wallet's beneficiaries",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/balances',
    handler: (o) => o.balances.bind(o) as Handler,
    summary: "Extension: the master wallet's balances",
  },
  {
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/balances',
    handler: (o) => o.balances.bind(o) as Handler,
    summary: "Extension: a child address's balances",
  },
  {
    method: 'POST',
    pattern: '/control/deposits',
    handler: (o) => o.deposit.bind(o) as Handler,
    body: req.depositBody,
    summary: 'Sandbox control: simulate a deposit to a child address',
  },
  {
    method: 'GET',
    pattern: '/control/faults',
    handler: (_o, faults) =>
      (async ({ wallet }: Call) => ({
        data: faults.get(wallet.id),
        message: 'Faults fetched successfully',
      })) as Handler,
    summary: "Sandbox control: the wallet's fault state",
  },
  {
    method: 'POST',
    pattern: '/control/faults',
    handler: (_o, faults) =>
      (async ({ wallet, body }: Call<typeof faultsBody._output>) => ({
        data: faults.set(wallet.id, body),
        message: 'Faults updated successfully',
      })) as Handler,
    body: faultsBody,
    summary:
      "Sandbox control: delay or lose the answer of the wallet's next money-moving or signing call, or switch the extension endpoints off",
  },
];

/** Extension routes answer as unknown paths while a wallet is in spec-only mode. */
export function isExtensionRoute(route: Route): boolean {
  return EXTENSION_ROUTE_KEYS.has(`${route.method} ${route.pattern}`);
}

export function matchRoute(method: string, path: string) {
  const segments = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const route of ROUTES) {
    const parts = route.pattern.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (const [i, part] of parts.entries()) {
      const seg = segments[i]!;
      if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(seg);
      else if (part !== seg) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method-not-allowed' : undefined;
}

export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ statusCode: status, message }, { status, headers });
}

export function envelope(result: Result): Response {
  return Response.json({
    data: result.data,
    message: result.message,
    statusCode: 200,
    ...(result.meta ? { meta: result.meta } : {}),
  });
}

/** Fixed-window counter per API key; generous by default, but real (429 with Retry-After). */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Seconds to wait when over the limit; undefined when the request may proceed. */
  hit(key: string): number | undefined {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count <= this.limit) return undefined;
    return Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000));
  }
}

export function authenticate(catalog: Catalog, request: Request): { wallet: WalletRow; keyHash: string } {
  const key = request.headers.get('x-api-key');
  if (!key) throw new HttpError(401, 'Missing API key: send it in the x-api-key header');
  const keyHash = hashApiKey(key);
  const wallet = catalog.walletByKeyHash.get(keyHash);
  if (!wallet) throw new HttpError(401, 'Invalid API key');
  return { wallet, keyHash };
}

export function authorizeWallet(
  catalog: Catalog,
  keyWallet: WalletRow,
  walletId: string | undefined,
): WalletRow {
  if (walletId === undefined) return keyWallet;
  if (!catalog.wallets.has(walletId)) throw new HttpError(404, 'Wallet not found');
  // Each wallet has its own key; one wallet's key never acts on another wallet.
  if (walletId !== keyWallet.id)
    throw new HttpError(403, 'This API key does not belong to the requested wallet');
  return keyWallet;
}

export async function readBody(request: Request, schema: z.ZodType): Promise<unknown> {
  const text = await request.text();
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, 'The request body must be a JSON object');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'body';
    throw new HttpError(400, `Malformed body: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}
