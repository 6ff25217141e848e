// The past counterparties a look-alike may imitate: the recipients of the kinds that pay recipients, once sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindsWhere, OPERATION_KINDS } from '@/lib/approvals/kinds';
import { operationRequests } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { consolePaidAddresses, RECIPIENT_PAYING_KINDS } from './address-book';

const WALLET = 'wallet-1';
let database: TestDatabase;

/** A stand-in recipient address per kind, so the answer tells which kinds it read. */
const addressOf = (kind: string) => `0x${Buffer.from(kind).toString('hex').padEnd(40, '0').slice(0, 40)}`;

function request(type: string, status: string, walletId = WALLET) {
  return {
    type,
    status,
    walletId,
    payload: { items: [{ address: addressOf(type), amount: '1', symbol: 'USDC' }] },
    payloadHash: 'x',
    review: {},
    summary: type,
    requiredApprovals: 1,
    requesterId: 'u1',
    requesterEmail: 'u1@example.com',
    expiresAt: new Date(Date.now() + 60_000),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  // One sent request of every kind, each with an `items` list, and some that must not count.
  await database.db
    .insert(operationRequests)
    .values([
      ...OPERATION_KINDS.map((kind) => request(kind, 'SUBMITTED')),
      request('withdraw', 'PENDING_APPROVAL'),
      { ...request('payout', 'SUCCESS', 'wallet-2') },
    ]);
});

afterAll(async () => {
  await database?.close();
});

describe('recipient-paying kinds', () => {
  it('are the kinds whose traits say they pay recipients: withdrawals, sent or signed, and payout files', () => {
    expect(RECIPIENT_PAYING_KINDS).toEqual(kindsWhere((traits) => traits.paysRecipients));
    expect([...RECIPIENT_PAYING_KINDS].sort()).toEqual(['payout', 'withdraw', 'withdrawSign']);
  });

  it('decide whose recipients a wallet has paid: sent requests of those kinds, of that wallet only', async () => {
    const paid = await consolePaidAddresses(database.db, WALLET, 100);
    expect([...paid].sort()).toEqual(RECIPIENT_PAYING_KINDS.map(addressOf).sort());
  });
});
