// Alerts outside the console: the events a person may receive and the form that chooses channels for them
// (its schema is `alert-schema.ts`).

export const ALERT_EVENTS = [
  'approval_needed',
  'request_ready',
  'request_failed',
  'request_duplicate',
  'configuration_changed',
  'webhook_failing',
  'transaction_pending',
  'gas_low',
] as const;

export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** What each event is called on the Account page. */
export const ALERT_EVENT_LABELS: Record<AlertEvent, { label: string; description: string }> = {
  approval_needed: {
    label: 'Needs your approval',
    description: 'Someone else asked for a request you may approve.',
  },
  request_ready: { label: 'Your request is approved', description: 'The last approval you needed came in.' },
  request_failed: {
    label: 'Your request failed',
    description: 'Rejected, expired, refused by the service or failed on chain.',
  },
  request_duplicate: {
    label: 'Duplicate detected',
    description: 'More than one transaction carries your request’s reference.',
  },
  configuration_changed: {
    label: 'Policy or configuration changed',
    description: 'A change approved by two people took effect, or the freeze changed.',
  },
  webhook_failing: {
    label: 'Webhook endpoint failing',
    description: 'A wallet’s webhook deliveries failed many times in a row (once per streak).',
  },
  transaction_pending: {
    label: 'Transaction pending too long',
    description: 'A submitted transaction is still pending after the set number of minutes.',
  },
  gas_low: {
    label: 'Gas balance low',
    description: 'A wallet’s native balance fell below the set threshold.',
  },
};

export type AlertChannelKind = 'email' | 'chat';

/** The Account form's values: each channel on or off, its address and its events (shape: `alert-schema.ts`). */
export interface AlertSettings {
  emailEnabled: boolean;
  email: string;
  emailEvents: AlertEvent[];
  chatEnabled: boolean;
  /** Empty with a chat webhook already saved: keep the saved one (its URL is never sent back to the browser). */
  chatUrl: string;
  chatEvents: AlertEvent[];
}
export type AlertSettingsInput = AlertSettings;

/** A person's channels as the Account page shows them: never the chat webhook's URL itself. */
export interface AlertChannelView {
  kind: AlertChannelKind;
  enabled: boolean;
  hint: string;
  events: AlertEvent[];
}

/** One alert of a person's recent ones, with its delivery status on one channel. */
export interface RecentAlert {
  id: string;
  /** `test`: sent from the Account page to try the channels. */
  event: AlertEvent | 'test';
  channel: AlertChannelKind;
  subject: string;
  link: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
}
