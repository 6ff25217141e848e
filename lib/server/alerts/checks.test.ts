// The periodic checks without a custody service of their own: a transaction pending too long among the console's
// requests, a native balance below the threshold, each raised once per cause.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustodyClient } from '@/lib/custody';
import { alertOutbox, operationItems, operationRequests, users, walletConnections } from '@/lib/db/schema';
import { ALERT_EVENTS } from '@/lib/validation/alerts';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { type AlertCheckDeps, checkGasBalances, checkPendingTransactions, decimalBelow } from './checks';
import { outboundRules } from './outbound';
import { createAlertOutbox } from './outbox';
import { saveAlertSettings } from './settings';

let database: TestDatabase;
let nativeBalance = '0.5';
const NOW = new Date('2026-11-25T12:00:00Z');

const OLD_DEPOSIT = '6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

/** A service answering the two extensions the checks read: balances, and the wallet-wide transaction list. */
const service = {
  wallets: {
    listTransactions: async () => ({
      data: [
        { id: OLD_DEPOSIT, status: 'PENDING', type: 'DEPOSIT', createdAt: '2026-11-25T11:00:00Z' },
        { id: 'recent-deposit', status: 'PENDING', type: 'DEPOSIT', createdAt: '2026-11-25T11:55:00Z' },
      ],
      meta: { currentPage: 1, totalPages: 1 },
      message: 'ok',
    }),
    balances: async () => ({
      data: [
        { asset: { id: 'a1', asset: { symbol: 'USDC', decimals: 6, address: '0xa0b8' } }, balance: '10' },
        {
          asset: { id: 'a2', asset: { symbol: 'ETH', decimals: 18, address: null } },
          balance: nativeBalance,
        },
      ],
      message: 'ok',
    }),
  },
} as unknown as CustodyClient;

let deps: AlertCheckDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  const [person] = await database.db
    .insert(users)
    .values({ email: 'ops@example.com', name: 'Ops', role: 'viewer', passwordHash: 'not-a-real-hash' })
    .returning();
  await saveAlertSettings(
    database.db,
    person!.id,
    {
      emailEnabled: true,
      email: 'ops@example.com',
      emailEvents: [...ALERT_EVENTS],
      chatEnabled: false,
      chatUrl: '',
      chatEvents: [],
    },
    { key: Buffer.alloc(32, 1), rules: outboundRules(undefined, false) },
  );
  await database.db.insert(walletConnections).values({
    id: 'wallet-1',
    name: 'Treasury',
    blockchain: 'ethereum',
    network: 'testnet',
    address: '0x0000000000000000000000000000000000000001',
    apiKeySealed: 'sealed',
    apiKeyLast4: 'abcd',
    createdBy: 'test',
  });
  deps = {
    db: database.db,
    sink: createAlertOutbox(database.db, { origin: 'https://console.example.com' }),
    clientFor: async () => service,
    now: () => NOW,
    streakThreshold: 5,
    pendingMinutes: 30,
    gasMinBalance: '1',
  };
});

afterAll(async () => {
  await database?.close();
});

async function submitted(minutesAgo: number, itemStatus: string | null) {
  const id = randomUUID();
  const at = new Date(NOW.getTime() - minutesAgo * 60_000);
  await database.db.insert(operationRequests).values({
    id,
    type: 'withdraw',
    status: 'SUBMITTED',
    walletId: 'wallet-1',
    payload: {},
    payloadHash: 'h',
    review: {},
    summary: 'Withdraw 1 USDC',
    requiredApprovals: 1,
    requesterId: randomUUID(),
    requesterEmail: 'finance@example.com',
    expiresAt: NOW,
    lastAttemptAt: at,
    createdAt: at,
    updatedAt: at,
  });
  await database.db.insert(operationItems).values({
    requestId: id,
    walletId: 'wallet-1',
    index: 0,
    reference: `ref-${id}`,
    transactionId: `tx-${id}`,
    status: itemStatus,
  });
  return id;
}

const rowsOf = async (event: string) =>
  (await database.db.select().from(alertOutbox)).filter((r) => r.event === event);

describe('alert checks', () => {
  it('compares decimal amounts exactly', () => {
    expect(decimalBelow('0.5', '1')).toBe(true);
    expect(decimalBelow('1.0', '1')).toBe(false);
    expect(decimalBelow('0.0100000000000000001', '0.01')).toBe(false);
    expect(decimalBelow('0.0099999999999999999', '0.01')).toBe(true);
    expect(decimalBelow('12', '3.5')).toBe(false);
  });

  it('a transaction pending longer than the set minutes is alerted once; a recent or settled one is not', async () => {
    const old = await submitted(45, 'PENDING');
    await submitted(10, 'PENDING');
    await submitted(45, 'SUCCESS');
    await checkPendingTransactions(deps);
    await checkPendingTransactions(deps);
    const rows = await rowsOf('transaction_pending');
    // The console's own request, and a deposit the service lists as pending for an hour.
    expect(rows.map((r) => r.link).sort()).toEqual(
      [
        `https://console.example.com/approvals/${old}`,
        `https://console.example.com/wallets/wallet-1/transactions?status=PENDING&open=${OLD_DEPOSIT}`,
      ].sort(),
    );
    expect(rows[0]!.subject).toContain('30 minutes');
  });

  it('a native balance below the threshold is alerted at most once a day; above it, nothing', async () => {
    nativeBalance = '2';
    await checkGasBalances(deps);
    expect(await rowsOf('gas_low')).toHaveLength(0);
    nativeBalance = '0.5';
    await checkGasBalances(deps);
    await checkGasBalances(deps);
    const rows = await rowsOf('gas_low');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body).toContain('0.5 ETH');
    expect(rows[0]!.link).toBe('https://console.example.com/wallets/wallet-1');
  });
});
