import 'server-only';
// Service tokens as configuration kinds: an admin asks for a token (or a new secret for one), a second admin
// approves, and the console makes it. The token and its webhook secret are generated when the change is carried
// out, kept sealed with the result and shown once to the requesting admin; the requester is recorded as having
// seen a secret, so they never approve the token's requests.
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_EXPIRY_SECONDS, type PolicyValues } from '@/lib/approvals/policy';
import { SERVICE_TOKEN_SCOPES } from '@/lib/approvals/service-tokens';
import { serviceTokens, walletConnections } from '@/lib/db/schema';
import { issueToken, issueWebhookSecret } from '../../service-tokens/tokens';
import { defineLocalOperation, LocalRefusal } from './types';

const POLICY: PolicyValues = { approvals: 1, thresholdUsd: null, expirySeconds: DEFAULT_EXPIRY_SECONDS };

/** The webhook URL may carry its own secret: it travels sealed in the payload, bound to this purpose. */
export const TOKEN_WEBHOOK_BINDING = 'service-token-webhook';

/** Stored, the webhook URL and its signing secret are sealed to their token and field: neither can be moved. */
export function tokenWebhookBinding(tokenId: string, field: 'url' | 'secret'): string {
  return `${TOKEN_WEBHOOK_BINDING}:${tokenId}:${field}`;
}

const builtAt = () => new Date().toISOString();

const secretBinding = (requestId: string) => `service-token:${requestId}`;

const createPayload = z.strictObject({
  name: z.string().min(1).max(100),
  scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)).min(1),
  walletIds: z.array(z.string().min(1).max(100)).min(1).max(50),
  dailyCapUsd: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/),
  minApprovals: z.number().int().min(1).max(5),
  allowedCidrs: z.array(z.string().max(60)).max(100),
  rateLimitPerMinute: z.number().int().min(1).max(6000),
  webhookUrlSealed: z.string().max(4000).nullable(),
  webhookHint: z.string().max(600).nullable(),
  expiresInDays: z.number().int().min(1).max(730),
});

export const serviceTokenCreateOperation = defineLocalOperation({
  key: 'serviceTokenCreate',
  permissions: { request: 'serviceTokenCreate.request', approve: 'serviceTokenCreate.approve' },
  defaultPolicy: POLICY,
  payloadSchema: createPayload,
  async buildReview(p, ctx) {
    const wallets = await ctx.db
      .select({ id: walletConnections.id, name: walletConnections.name })
      .from(walletConnections)
      .where(inArray(walletConnections.id, p.walletIds));
    const missing = p.walletIds.filter((id) => !wallets.some((w) => w.id === id));
    if (missing.length > 0) throw new LocalRefusal(`No connected wallet ${missing.join(', ')}.`);
    const moves = p.scopes.some((s) => s !== 'read');
    const warnings = [
      ...(moves
        ? [
            `Its requests move money once ${p.minApprovals} ${p.minApprovals === 1 ? 'person approves' : 'people approve'} (more where the policy asks); up to ${p.dailyCapUsd} USD over any 24 hours.`,
          ]
        : []),
      ...(p.allowedCidrs.length === 0 ? ['It may be used from any network.'] : []),
    ];
    return {
      review: {
        kind: 'serviceTokenCreate',
        name: p.name,
        scopes: p.scopes,
        walletIds: p.walletIds,
        walletNames: p.walletIds.map((id) => wallets.find((w) => w.id === id)?.name ?? id),
        dailyCapUsd: p.dailyCapUsd,
        minApprovals: p.minApprovals,
        allowedCidrs: p.allowedCidrs,
        rateLimitPerMinute: p.rateLimitPerMinute,
        webhookHint: p.webhookHint,
        expiresInDays: p.expiresInDays,
        warnings,
        builtAt: builtAt(),
      },
      summary: `API token "${p.name}"`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const issued = issueToken();
    const id = randomUUID();
    const webhookSecret = p.webhookUrlSealed ? issueWebhookSecret() : null;
    const webhookUrl = p.webhookUrlSealed
      ? ctx.services.open(p.webhookUrlSealed, TOKEN_WEBHOOK_BINDING)
      : null;
    const [row] = await ctx.db
      .insert(serviceTokens)
      .values({
        id,
        name: p.name,
        secretHash: issued.secretHash,
        prefix: issued.prefix,
        scopes: p.scopes,
        walletIds: p.walletIds,
        dailyCapUsd: p.dailyCapUsd,
        minApprovals: p.minApprovals,
        allowedCidrs: p.allowedCidrs,
        rateLimitPerMinute: p.rateLimitPerMinute,
        webhookUrl: webhookUrl ? ctx.services.seal(webhookUrl, tokenWebhookBinding(id, 'url')) : null,
        webhookSecretSealed: webhookSecret
          ? ctx.services.seal(webhookSecret, tokenWebhookBinding(id, 'secret'))
          : null,
        // Counted from the approval, so a late approval does not shorten the token's life.
        expiresAt: new Date(ctx.now.getTime() + p.expiresInDays * 86_400_000),
        createdBy: ctx.requester.id,
        createdByEmail: ctx.requester.email,
        secretSeenBy: [ctx.requester.id],
        createdAt: ctx.now,
      })
      .returning({ id: serviceTokens.id });
    if (!row) throw new LocalRefusal('The token could not be stored.');
    return {
      result: {
        kind: 'serviceTokenCreate' as const,
        message: `API token "${p.name}" was made.`,
        tokenId: row.id,
        tokenSecret: 'waiting' as const,
      },
      sealed: {
        tokenSecret: ctx.services.seal(
          `${issued.token}\n${webhookSecret ?? ''}`,
          secretBinding(ctx.requestId),
        ),
      },
      audit: {
        action: 'serviceToken.create',
        target: row.id,
        input: { name: p.name, scopes: p.scopes, walletIds: p.walletIds, dailyCapUsd: p.dailyCapUsd },
      },
    };
  },
});

export const serviceTokenRotateOperation = defineLocalOperation({
  key: 'serviceTokenRotate',
  permissions: { request: 'serviceTokenRotate.request', approve: 'serviceTokenRotate.approve' },
  defaultPolicy: POLICY,
  payloadSchema: z.strictObject({ tokenId: z.uuid() }),
  async buildReview(p, ctx) {
    const [token] = await ctx.db.select().from(serviceTokens).where(eq(serviceTokens.id, p.tokenId)).limit(1);
    if (!token) throw new LocalRefusal('That token no longer exists.');
    if (token.revokedAt) throw new LocalRefusal('That token was revoked; make a new one instead.');
    return {
      review: {
        kind: 'serviceTokenRotate',
        tokenId: token.id,
        name: token.name,
        prefix: `cct_${token.prefix}_…`,
        warnings: ['The current secret stops working as soon as the new one is made.'],
        builtAt: builtAt(),
      },
      summary: `New secret for API token "${token.name}"`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const issued = issueToken();
    const [row] = await ctx.db
      .update(serviceTokens)
      .set({
        secretHash: issued.secretHash,
        prefix: issued.prefix,
        rotatedAt: ctx.now,
        secretSeenBy: sql`${serviceTokens.secretSeenBy} || ${JSON.stringify([ctx.requester.id])}::jsonb`,
      })
      .where(sql`${serviceTokens.id} = ${p.tokenId} and ${serviceTokens.revokedAt} is null`)
      .returning({ id: serviceTokens.id, name: serviceTokens.name });
    if (!row) throw new LocalRefusal('That token was revoked or removed meanwhile.');
    return {
      result: {
        kind: 'serviceTokenRotate' as const,
        message: `API token "${row.name}" has a new secret; the old one no longer works.`,
        tokenId: row.id,
        tokenSecret: 'waiting' as const,
      },
      // The webhook secret stays as it was: rotating the token does not break the system's receiver.
      sealed: { tokenSecret: ctx.services.seal(`${issued.token}\n`, secretBinding(ctx.requestId)) },
      audit: { action: 'serviceToken.rotate', target: row.id, input: { name: row.name } },
    };
  },
});
