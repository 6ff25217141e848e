import 'server-only';
// Service tokens: made, recognised and described here. A token reads `cct_<prefix>_<secret>`; the prefix finds
// its row, the SHA-256 of the whole token is compared in constant time, and only that hash is stored. The secret
// is shown once, to the admin who asked for it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  type ServiceTokenScope,
  type ServiceTokenView,
  TOKEN_ACTOR_PREFIX,
  webhookHintOf,
} from '@/lib/approvals/service-tokens';
import { type ConsoleDb, type ServiceTokenRow, serviceTokens, walletConnections } from '@/lib/db/schema';
import type { Action } from '../permissions';

const TOKEN_PATTERN = /^cct_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedToken {
  /** The whole token, to show once. */
  token: string;
  prefix: string;
  secretHash: string;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function issueToken(): IssuedToken {
  const prefix = randomBytes(6).toString('hex');
  const token = `cct_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, prefix, secretHash: hashToken(token) };
}

/** A webhook signing secret: given to the system with the token, kept sealed by the console to sign with. */
export function issueWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export type TokenCheck =
  | { ok: true; token: ServiceTokenRow }
  | { ok: false; status: 401; code: 'unauthenticated' | 'token_expired' | 'token_revoked'; message: string };

const UNKNOWN = {
  ok: false as const,
  status: 401 as const,
  code: 'unauthenticated' as const,
  message: 'Send a valid service token as "Authorization: Bearer cct_…".',
};

/** The token a request carries (`Authorization: Bearer …`), checked against its stored hash. */
export async function findToken(db: ConsoleDb, authorization: string | null, now: Date): Promise<TokenCheck> {
  const presented = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  const match = presented.match(TOKEN_PATTERN);
  if (!match) return UNKNOWN;
  const rows = await db.select().from(serviceTokens).where(eq(serviceTokens.prefix, match[1]!)).limit(5);
  const wanted = Buffer.from(hashToken(presented), 'hex');
  const row = rows.find((r) => {
    const stored = Buffer.from(r.secretHash, 'hex');
    return stored.length === wanted.length && timingSafeEqual(stored, wanted);
  });
  if (!row) return UNKNOWN;
  if (row.revokedAt)
    return { ok: false, status: 401, code: 'token_revoked', message: 'This token was revoked by an admin.' };
  if (row.expiresAt <= now)
    return {
      ok: false,
      status: 401,
      code: 'token_expired',
      message: `This token expired at ${row.expiresAt.toISOString()}. Ask an admin for a new one.`,
    };
  return { ok: true, token: row };
}

export function tokenActorId(tokenId: string): string {
  return `${TOKEN_ACTOR_PREFIX}${tokenId}`;
}

/** How a token's requests and audit entries name it. */
export function tokenActorName(name: string): string {
  return `${name} (API token)`;
}

/** The engine's permissions a scope grants: requests only, never an approval. */
const SCOPE_ACTIONS: Record<ServiceTokenScope, readonly Action[]> = {
  read: [],
  'withdrawals:request': ['withdraw.request'],
  'swaps:request': ['swap.request'],
};

export function tokenMay(token: Pick<ServiceTokenRow, 'scopes'>, action: Action): boolean {
  return token.scopes.some((scope) => SCOPE_ACTIONS[scope as ServiceTokenScope]?.includes(action));
}

export function hasScope(token: Pick<ServiceTokenRow, 'scopes'>, scope: ServiceTokenScope): boolean {
  return token.scopes.includes(scope);
}

/** The token row behind a requester id (`token:<uuid>`), or undefined. */
export async function tokenOfActor(
  db: Pick<ConsoleDb, 'select'>,
  actorId: string,
): Promise<ServiceTokenRow | undefined> {
  if (!actorId.startsWith(TOKEN_ACTOR_PREFIX)) return undefined;
  const id = actorId.slice(TOKEN_ACTOR_PREFIX.length);
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(serviceTokens).where(eq(serviceTokens.id, id)).limit(1);
  return row;
}

function tokenView(row: ServiceTokenRow, names: Map<string, string>, now: Date): ServiceTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: `cct_${row.prefix}_…`,
    scopes: row.scopes as ServiceTokenScope[],
    walletIds: row.walletIds,
    walletNames: row.walletIds.map((id) => names.get(id) ?? id),
    dailyCapUsd: row.dailyCapUsd,
    minApprovals: row.minApprovals,
    allowedCidrs: row.allowedCidrs,
    rateLimitPerMinute: row.rateLimitPerMinute,
    webhookHint: webhookHintOf(row.webhookUrl),
    expiresAt: row.expiresAt.toISOString(),
    createdByEmail: row.createdByEmail,
    approvedBy: row.approvedBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedBy,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active',
  };
}

export async function listTokens(db: ConsoleDb): Promise<ServiceTokenView[]> {
  const [rows, wallets] = await Promise.all([
    db.select().from(serviceTokens).orderBy(desc(serviceTokens.createdAt)).limit(500),
    db.select({ id: walletConnections.id, name: walletConnections.name }).from(walletConnections),
  ]);
  const names = new Map(wallets.map((w) => [w.id, w.name]));
  const now = new Date();
  return rows.map((r) => tokenView(r, names, now));
}

/** Revoking takes effect at once (it only takes power away); returns the row, or undefined if already revoked. */
export async function revokeToken(db: ConsoleDb, tokenId: string, by: string, now = new Date()) {
  const [row] = await db
    .update(serviceTokens)
    .set({ revokedAt: now, revokedBy: by })
    .where(and(eq(serviceTokens.id, tokenId), isNull(serviceTokens.revokedAt)))
    .returning();
  return row;
}

/** Marks the token used; at most once a minute per token, so a busy system does not write on every call. */
export async function touchToken(db: ConsoleDb, token: ServiceTokenRow, now: Date): Promise<void> {
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < 60_000) return;
  await db
    .update(serviceTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(serviceTokens.id, token.id),
        sql`(${serviceTokens.lastUsedAt} is null or ${serviceTokens.lastUsedAt} < ${new Date(now.getTime() - 60_000)})`,
      ),
    );
}
