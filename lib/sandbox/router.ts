import 'server-only';
// The HTTP face of the endpoints in ./handlers: path matching, x-api-key authentication, body parsing, envelope and errors.
import type { z } from 'zod';
import { type Catalog, HttpError, type WalletRow } from './context';
import { EXTENSION_ROUTE_KEYS } from './extensions';
import { ENDPOINTS, type Endpoint, type Result } from './handlers';
import { hashApiKey } from './keys';

/** Extension routes answer as unknown paths while a wallet is in spec-only mode. */
export function isExtensionRoute(route: Endpoint): boolean {
  return EXTENSION_ROUTE_KEYS.has(`${route.method} ${route.pattern}`);
}

export function matchRoute(method: string, path: string) {
  const segments = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const route of ENDPOINTS) {
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
