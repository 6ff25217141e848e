'use server';
// API tokens for back-office systems. Making a token and giving it a new secret are configuration changes a
// second admin approves; the secret is then shown once to the admin who asked. Revoking takes effect at once.
import { revalidatePath } from 'next/cache';
import { requestConfigurationChange } from '@/lib/actions/configuration-request';
import { defineAction, ok, refuse } from '@/lib/actions/define-action';
import { webhookHintOf } from '@/lib/approvals/service-tokens';
import { encryptSecret } from '@/lib/crypto/aead';
import { alertConfigurationChange, alertOutboundRules } from '@/lib/server/alerts';
import { outboundUrlProblem } from '@/lib/server/alerts/outbound';
import { getApprovalEngine } from '@/lib/server/approvals';
import { TOKEN_WEBHOOK_BINDING } from '@/lib/server/approvals/operations/service-tokens';
import { revokeToken, tokenActorId } from '@/lib/server/service-tokens/tokens';
import { currentServices } from '@/lib/server/services';
import { requestIdSchema } from '@/lib/validation/approvals';
import { serviceTokenFormSchema, serviceTokenIdSchema, splitNetworks } from '@/lib/validation/service-tokens';

/** Asks for a new API token; a second admin approves, then the token is shown once to the requester. */
export const requestServiceTokenAction = defineAction({
  permission: 'serviceTokenCreate.request',
  resource: 'service tokens',
  input: serviceTokenFormSchema,
  context: 'request API token',
  stepUp: (v) => ({ change: 'serviceTokenCreate', name: v.name, scopes: v.scopes, walletIds: v.walletIds }),
  run: async ({ input, actor }) => {
    const services = await currentServices();
    let webhookUrlSealed: string | null = null;
    if (input.webhookUrl) {
      // The console will post to this address: the same rule as people's chat webhooks (public addresses only).
      const problem = await outboundUrlProblem(input.webhookUrl, alertOutboundRules(services));
      if (problem) return refuse(problem, { fieldErrors: { webhookUrl: problem } });
      webhookUrlSealed = encryptSecret(
        input.webhookUrl,
        services.config.encryptionKey,
        TOKEN_WEBHOOK_BINDING,
      );
    }
    return requestConfigurationChange(
      actor,
      'serviceTokenCreate',
      {
        name: input.name,
        scopes: input.scopes,
        walletIds: input.walletIds,
        dailyCapUsd: input.dailyCapUsd,
        minApprovals: input.minApprovals,
        allowedCidrs: splitNetworks(input.allowedCidrs),
        rateLimitPerMinute: input.rateLimitPerMinute,
        webhookUrlSealed,
        webhookHint: webhookHintOf(input.webhookUrl || null),
        expiresInDays: input.expiresInDays,
      },
      'name',
    );
  },
});

/** Asks for a new secret for a token; a second admin approves, and the old secret stops working then. */
export const rotateServiceTokenAction = defineAction({
  permission: 'serviceTokenRotate.request',
  resource: 'service tokens',
  input: serviceTokenIdSchema,
  invalid: 'first-issue',
  context: 'rotate API token',
  stepUp: ({ tokenId }) => ({ change: 'serviceTokenRotate', tokenId }),
  run: ({ input, actor }) => requestConfigurationChange(actor, 'serviceTokenRotate', input),
});

/** Revokes a token at once: it only takes power away, so it needs no second person. */
export const revokeServiceTokenAction = defineAction({
  permission: 'serviceToken.revoke',
  resource: 'service tokens',
  input: serviceTokenIdSchema,
  invalid: 'first-issue',
  context: 'revoke API token',
  stepUp: ({ tokenId }) => ({ change: 'serviceTokenRevoke', tokenId }),
  audit: {
    action: 'serviceToken.revoke',
    target: ({ tokenId }) => tokenId,
    input: (_input, data: { name: string; cancelled: number } | undefined) => ({
      name: data?.name ?? null,
      cancelled: data?.cancelled ?? 0,
    }),
  },
  run: async ({ input, actor }) => {
    const services = await currentServices();
    const row = await revokeToken(services.database.db, input.tokenId, actor.email);
    if (!row) return refuse('That token does not exist or was revoked already.');
    const cancelled = await (await getApprovalEngine()).cancelRequestsOf(
      actor,
      tokenActorId(row.id),
      `API token "${row.name}" revoked`,
    );
    await alertConfigurationChange({
      key: `service-token-revoke:${row.id}`,
      summary: `API token "${row.name}" revoked`,
      by: actor.email,
      path: '/admin/tokens',
    });
    revalidatePath('/admin/tokens');
    revalidatePath('/approvals');
    return ok({ name: row.name, cancelled });
  },
});

/** The token (and its webhook secret) a configuration request made, shown once to the admin who asked. */
export const revealServiceTokenAction = defineAction({
  permission: 'serviceTokenCreate.request',
  resource: 'service tokens',
  input: requestIdSchema,
  invalid: 'first-issue',
  context: 'show API token',
  stepUp: ({ requestId }) => ({ reveal: 'API token', requestId }),
  run: async ({ input: { requestId }, actor }) => {
    const taken = await (await getApprovalEngine()).takeTokenSecret(actor, requestId);
    if (!taken.ok) return refuse(taken.error, { status: taken.status });
    return ok(taken.data);
  },
});
