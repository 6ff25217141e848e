// Client components of the webhook feature; the server loaders live in lib/server/webhooks.ts.
export { AttemptHistory } from './attempt-history';
export { BulkResendDialog } from './bulk-resend-dialog';
export { DeliveryStateBadge, DeliveryStatusBadge, describeResponse } from './delivery-status';
export { JsonTree } from './json-tree';
export { ResendWebhookButton } from './resend-webhook-button';
export { RetryTransactionButton, type RetryTransactionButtonProps } from './retry-transaction-button';
export { TransactionDeliveries, type TransactionDeliveriesProps } from './transaction-deliveries';
export { WebhookDeliveryDialog } from './webhook-delivery-dialog';
export { WebhookLogSkeleton } from './webhook-log-skeleton';
export { WebhookLogTable } from './webhook-log-table';
