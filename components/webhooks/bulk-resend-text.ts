// The bulk resend confirmation's words for a number of transactions, singular or plural.
export function bulkResendText(count: number): { title: string; confirmLabel: string } {
  const action = `Resend ${count} ${count === 1 ? 'webhook' : 'webhooks'}`;
  return { title: `${action}?`, confirmLabel: action };
}
