// The resend and retry server actions: permission first, a retry only of FAILED transactions (read from the
// service, not trusted from the button) and only as an approval request, and one audit entry per row of a
// bulk resend.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CustodyError } from '@/lib/custody/errors';

const state = vi.hoisted(() => ({
  allowed: true,
  audits: [] as Array<{ action: string; outcome: string; target?: string | null }>,
  status: 'FAILED',
  retried: [] as string[],
  resent: [] as string[],
  inFlight: 0,
  peak: 0,
  requested: [] as Array<{ kind: string; walletId: string; payload: unknown }>,
}));

// The approval engine is exercised against the sandbox elsewhere; here the request it would get is recorded.
vi.mock('./approvals/request-actions', () => ({
  createOperationRequest: async (check: () => Promise<Record<string, unknown>>) => {
    const checked = (await check()) as {
      ok: boolean;
      result?: unknown;
      kind: string;
      walletId: string;
      payload: unknown;
    };
    if (!checked.ok) return checked.result;
    state.requested.push({ kind: checked.kind, walletId: checked.walletId, payload: checked.payload });
    return { ok: true, data: { id: 'request-1' } };
  },
}));

vi.mock('./guard', () => ({
  authorize: async () =>
    state.allowed
      ? {
          ok: true,
          actor: { id: 'u1', email: 'a@example.com', name: 'A', role: 'admin', requestId: 'req-1' },
        }
      : { ok: false, status: 403, error: 'You do not have permission to do this.', actor: null },
  audit: async (
    _actor: unknown,
    action: string,
    outcome: string,
    details: { target?: string | null } = {},
  ) => {
    state.audits.push({ action, outcome, target: details.target });
  },
}));

vi.mock('./wallets', () => ({
  custodyFor: async (walletId: string) =>
    walletId === 'unknown'
      ? null
      : {
          wallets: {
            getTransaction: async ({ id }: { id: string }) => ({
              data: { id, status: state.status, type: 'WITHDRAW', reference: 'ref', hash: null },
              message: 'ok',
            }),
          },
          webhooks: { forTransaction: async () => ({ data: [], message: 'ok' }) },
          transactions: {
            retry: async ({ id }: { id: string }) => {
              state.retried.push(id);
              return {
                data: { id, status: 'PENDING', type: 'WITHDRAW', reference: 'ref', hash: null },
                message: 'Transaction retried',
              };
            },
            resendWebhook: async ({ id }: { id: string }) => {
              state.inFlight++;
              state.peak = Math.max(state.peak, state.inFlight);
              await new Promise((r) => setTimeout(r, 5));
              state.inFlight--;
              if (id === 'tx-bad')
                throw new CustodyError({
                  kind: 'http',
                  status: 400,
                  message: 'The transaction is still pending',
                  path: '/x',
                  method: 'POST',
                } as never);
              state.resent.push(id);
              return { data: { id }, message: 'Transaction fetched successfully' };
            },
          },
        },
}));

const { retryTransactionAction } = await import('@/lib/actions/transactions');
const { resendWebhookAction, resendWebhooksAction } = await import('@/lib/actions/webhooks');

beforeEach(() => {
  state.allowed = true;
  state.audits = [];
  state.status = 'FAILED';
  state.retried = [];
  state.resent = [];
  state.peak = 0;
  state.requested = [];
});

describe('retryTransactionAction', () => {
  it('turns a retry of a FAILED transaction into an approval request and sends nothing', async () => {
    const result = await retryTransactionAction({ walletId: 'w1', transactionId: 'tx-1' });
    expect(result).toEqual({ ok: true, data: { id: 'request-1' } });
    expect(state.requested).toEqual([
      { kind: 'retry', walletId: 'w1', payload: { transactionId: 'tx-1', addressId: null } },
    ]);
    expect(state.retried).toEqual([]);
  });

  it.each(['SUCCESS', 'PENDING'])('refuses a %s transaction without calling retry', async (status) => {
    state.status = status;
    const result = await retryTransactionAction({ walletId: 'w1', transactionId: 'tx-1' });
    expect(result).toMatchObject({
      ok: false,
      error: `Only failed transactions can be retried; this one is ${status}.`,
    });
    expect(state.retried).toEqual([]);
    expect(state.requested).toEqual([]);
    expect(state.audits[0]).toMatchObject({ action: 'transaction.retry', outcome: 'refused' });
  });

  it('refuses without the permission, bad input and unknown wallets before any upstream call', async () => {
    state.allowed = false;
    expect(await retryTransactionAction({ walletId: 'w1', transactionId: 'tx-1' })).toMatchObject({
      ok: false,
      status: 403,
    });
    state.allowed = true;
    expect(await retryTransactionAction({ walletId: 'w1', transactionId: '../../x' })).toMatchObject({
      ok: false,
    });
    expect(await retryTransactionAction({ walletId: 'unknown', transactionId: 'tx-1' })).toMatchObject({
      ok: false,
    });
    expect(state.retried).toEqual([]);
    expect(state.requested).toEqual([]);
  });
});

describe('resend actions', () => {
  it('resends one webhook and audits it; upstream errors come back with their message', async () => {
    // The result says what happened, not the service's "Transaction fetched successfully".
    expect(await resendWebhookAction({ walletId: 'w1', transactionId: 'tx-1' })).toEqual({
      ok: true,
      data: {
        transactionId: 'tx-1',
        ok: true,
        message: 'Webhook sent again for transaction tx-1; the service logged a new delivery.',
      },
    });
    expect(await resendWebhookAction({ walletId: 'w1', transactionId: 'tx-bad' })).toEqual({
      ok: false,
      error: 'The transaction is still pending',
    });
    expect(state.audits.map((a) => a.outcome)).toEqual(['success', 'failed']);
  });

  it('bulk resend: one result and one audit entry per transaction, at most four at a time', async () => {
    const ids = ['tx-1', 'tx-2', 'tx-bad', 'tx-3', 'tx-4', 'tx-5', 'tx-6', 'tx-1'];
    const result = await resendWebhooksAction({ walletId: 'w1', transactionIds: ids });
    if (!result.ok) throw new Error(result.error);
    expect(result.data.map((r) => [r.transactionId, r.ok])).toEqual([
      ['tx-1', true],
      ['tx-2', true],
      ['tx-bad', false],
      ['tx-3', true],
      ['tx-4', true],
      ['tx-5', true],
      ['tx-6', true],
    ]);
    expect(state.peak).toBeLessThanOrEqual(4);
    expect(state.peak).toBeGreaterThan(1);
    expect(state.audits.filter((a) => a.action === 'webhook.resend')).toHaveLength(7);
  });

  it('bulk resend refuses without the permission and with an empty selection', async () => {
    expect(await resendWebhooksAction({ walletId: 'w1', transactionIds: [] })).toMatchObject({ ok: false });
    state.allowed = false;
    expect(await resendWebhooksAction({ walletId: 'w1', transactionIds: ['tx-1'] })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(state.resent).toEqual([]);
  });
});
