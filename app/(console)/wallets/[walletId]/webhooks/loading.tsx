import { WebhookLogSkeleton } from '@/components/webhooks/webhook-log-skeleton';

export default function Loading() {
  return <WebhookLogSkeleton />;
}
