import { describe, expect, it } from 'vitest';
import { bulkResendText } from './bulk-resend-text';

describe('bulkResendText', () => {
  it('says webhook for one transaction', () => {
    expect(bulkResendText(1)).toEqual({ title: 'Resend 1 webhook?', confirmLabel: 'Resend 1 webhook' });
  });

  it('says webhooks and the count for several', () => {
    expect(bulkResendText(3)).toEqual({ title: 'Resend 3 webhooks?', confirmLabel: 'Resend 3 webhooks' });
  });
});
