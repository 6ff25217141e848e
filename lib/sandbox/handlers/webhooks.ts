import 'server-only';
// Webhook logs: #22 the wallet's deliveries, #23 one transaction's.
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { schemas } from '@/lib/custody/schemas';
import { sandboxWebhookLogs } from '../db/schema';
import { webhookLogApi } from '../serialize';
import { endpoint } from './endpoint';
import { pagedList, selectPage } from './paging';
import { transactionOf } from './shared';

// Rows with no attempt yet are the delivery queue, not log entries.
const attempted = gt(sandboxWebhookLogs.attempts, 0);

export const webhookEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/webhooks',
    summary: '#22 List webhook logs',
    response: { data: schemas.webhookLog, paged: true },
    query: ['page', 'limit'],
    handle({ core }, { wallet, query }) {
      return pagedList(
        query,
        'Webhooks fetched successfully',
        (window) =>
          selectPage(
            core.db,
            sandboxWebhookLogs,
            and(eq(sandboxWebhookLogs.walletId, wallet.id), attempted),
            [desc(sandboxWebhookLogs.createdAt), desc(sandboxWebhookLogs.id)],
            window,
          ),
        webhookLogApi,
      );
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions/:id/webhooks',
    summary: "#23 List a transaction's webhook logs",
    response: { data: z.array(schemas.webhookLog) },
    async handle({ core }, { wallet, params }) {
      const row = await transactionOf(core, wallet, params.id ?? '');
      const logs = await core.db
        .select()
        .from(sandboxWebhookLogs)
        .where(and(eq(sandboxWebhookLogs.transactionId, row.id), attempted))
        .orderBy(asc(sandboxWebhookLogs.createdAt), asc(sandboxWebhookLogs.id));
      return { data: logs.map(webhookLogApi), message: 'Transaction webhook logs fetched successfully' };
    },
  }),
];
