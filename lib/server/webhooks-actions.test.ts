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
  /** The webhook log (#22) as the service lists it. */
  log: [] as Array<Record<string, unknown>>,
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
          webhooks: {
            forTransaction: async () => ({ data: [], message: 'ok' }),
            list: async () => ({
              data: state.log,
              message: 'ok',
              meta: { currentPage: 1, totalPages: 1, itemsPerPage: 100, totalItems: state.log.length },
            }),
          },
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
const { resendFailedSinceAction, resendWebhookAction, resendWebhooksAction } = await import(
  '@/lib/actions/webhooks'
);

let seq = 0;
/** A log entry of a transaction's withdraw.success webhook, last tried at `at`. */
function logEntry(transactionId: string, status: 'success' | 'failed', at: string) {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    event: 'withdraw.success',
    url: 'https://console.example/api/webhooks/custody',
    attempts: status === 'failed' ? 3 : 1,
    status,
    response: status === 'success' ? 'OK' : { status: 502, text: 'Bad Gateway' },
    reference: transactionId,
    payload: { id: transactionId, status: 'SUCCESS', type: 'WITHDRAW' },
    createdAt: at,
    updatedAt: at,
  };
}

beforeEach(() => {
  state.allowed = true;
  state.audits = [];
  state.status = 'FAILED';
  state.retried = [];
  state.resent = [];
  state.peak = 0;
  state.requested = [];
  state.log = [];
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

describe('resend failed since a time', () => {
  const SINCE = '2026-11-20T10:00:00.000Z';
  beforeEach(() => {
    state.log = [
      logEntry('tx-old', 'failed', '2026-11-20T09:00:00.000Z'),
      logEntry('tx-new', 'failed', '2026-11-20T10:30:00.000Z'),
      // Failed, then delivered by a later send: nothing left to do.
      logEntry('tx-fixed', 'failed', '2026-11-20T10:10:00.000Z'),
      logEntry('tx-fixed', 'success', '2026-11-20T10:20:00.000Z'),
      logEntry('tx-ok', 'success', '2026-11-20T10:40:00.000Z'),
      logEntry('tx-bad', 'failed', '2026-11-20T11:00:00.000Z'),
    ];
  });

  it('counts, without sending, the deliveries that failed since then and were not delivered later', async () => {
    const result = await resendFailedSinceAction({ walletId: 'w1', since: SINCE, confirm: false });
    expect(result).toEqual({
      ok: true,
      data: { matching: 2, resent: 2, truncated: false, outcomes: [] },
    });
    expect(state.resent).toEqual([]);
    expect(state.audits.filter((a) => a.action === 'webhook.resend')).toEqual([]);
  });

  it('on confirmation resends each of them once, newest first, and audits each', async () => {
    const result = await resendFailedSinceAction({ walletId: 'w1', since: SINCE, confirm: true });
    if (!result.ok) throw new Error(result.error);
    expect(result.data.outcomes.map((o) => [o.transactionId, o.ok])).toEqual([
      ['tx-bad', false],
      ['tx-new', true],
    ]);
    expect(state.resent).toEqual(['tx-new']);
    expect(state.audits.filter((a) => a.action === 'webhook.resend').map((a) => a.target)).toEqual(
      expect.arrayContaining(['tx-bad', 'tx-new']),
    );
  });

  it('refuses a time that is not one, and anyone without the permission, before reading the log', async () => {
    expect(
      await resendFailedSinceAction({ walletId: 'w1', since: 'yesterday', confirm: true }),
    ).toMatchObject({
      ok: false,
    });
    state.allowed = false;
    expect(await resendFailedSinceAction({ walletId: 'w1', since: SINCE, confirm: true })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(state.resent).toEqual([]);
  });
});
