import { describe, expect, it } from 'vitest';
import type { CustodyClient } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { transaction } from '@/lib/custody/test-fixtures';
import { DEFAULT_TRANSACTION_SEARCH, filtersOf } from '@/lib/validation/transactions';
import {
  listTransactionPage,
  openTransactionCsvStream,
  TRANSACTION_CSV_HEADER,
  toTransactionRow,
} from './transactions';

function tx(n: number, overrides: Record<string, unknown> = {}): Transaction {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return transaction({ id, reference: `ref-${n}`, ...overrides }) as unknown as Transaction;
}

/** A client whose wallet list serves `rows` in pages and records each call's query. */
function fakeClient(rows: Transaction[], calls: Record<string, unknown>[] = []): CustodyClient {
  const list = async (q: { page?: number; limit?: number } & Record<string, unknown>) => {
    calls.push(q);
    const page = q.page ?? 1;
    const limit = q.limit ?? 100;
    const data = rows.slice((page - 1) * limit, page * limit);
    return {
      data,
      message: 'ok',
      meta: {
        currentPage: page,
        itemCount: data.length,
        itemsPerPage: limit,
        totalItems: rows.length,
        totalPages: Math.ceil(rows.length / limit),
      },
    };
  };
  return {
    wallets: { listTransactions: list },
    addresses: { listTransactions: list },
  } as unknown as CustodyClient;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('listTransactionPage', () => {
  it('joins two upstream pages for a 1000-row page and reports the console paging', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => tx(i));
    const calls: Record<string, unknown>[] = [];
    const page = await listTransactionPage(
      fakeClient(rows, calls),
      'w',
      filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, page: 2, limit: 1000 }),
    );
    expect(calls.map((c) => [c.page, c.limit])).toEqual([
      [3, 500],
      [4, 500],
    ]);
    expect(page.data).toHaveLength(200);
    expect(page.data[0]?.id).toBe(rows[1000]?.id);
    expect(page.meta).toEqual({
      currentPage: 2,
      itemCount: 200,
      itemsPerPage: 1000,
      totalItems: 1200,
      totalPages: 2,
    });
  });

  it('passes the filters upstream and uses the address endpoint when scoped to an address', async () => {
    const calls: Record<string, unknown>[] = [];
    const client = fakeClient([tx(1)], calls);
    const addressId = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    await listTransactionPage(
      client,
      'w',
      filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, status: 'FAILED', assets: ['USDC'], addressId }),
    );
    expect(calls[0]).toMatchObject({
      walletId: 'w',
      status: 'FAILED',
      assets: ['USDC'],
      addressId,
      order: 'DESC',
    });
  });

  it('redacts the embedded wallet business object', async () => {
    const secret = tx(1, {
      wallet: { id: 'w', business: { id: 'b', name: 'B', seedPhrase: `${'abandon '.repeat(11)}about` } },
    });
    const page = await listTransactionPage(fakeClient([secret]), 'w', filtersOf(DEFAULT_TRANSACTION_SEARCH));
    expect(JSON.stringify(page.data)).not.toContain('abandon');
  });
});

describe('toTransactionRow', () => {
  it('keeps every field the table and drawer show and only the names and decimals of nested objects', () => {
    const whole = tx(1, { beneficiary: { id: 'b', name: 'Acme', address: '0xabc' } });
    const row = toTransactionRow(whole);
    expect(row).toMatchObject({
      id: whole.id,
      reference: whole.reference,
      hash: whole.hash,
      status: whole.status,
      amount: whole.amount,
      senderAddress: whole.senderAddress,
      createdAt: whole.createdAt,
      addressId: whole.addressId,
      beneficiary: { name: 'Acme' },
    });
    expect(row.asset).toEqual(whole.asset && { symbol: whole.asset.symbol, decimals: whole.asset.decimals });
    expect(row.blockchain).toEqual(
      whole.blockchain && {
        name: whole.blockchain.name,
        slug: whole.blockchain.slug,
        symbol: whole.blockchain.symbol,
      },
    );
    expect(Object.keys(row)).not.toContain('wallet');
    expect(Object.keys(row)).not.toContain('response');
    expect(JSON.stringify(row).length).toBeLessThan(JSON.stringify(whole).length / 2);
  });

  it("keeps a gasless withdrawal's fee metadata, which says the master wallet paid the fee", () => {
    const feeMetadata = {
      gasless: true,
      feePaidBy: 'MASTER_WALLET',
      feePayerAddress: '0x00000000000000000000000000000000000000cc',
    };
    expect(toTransactionRow(tx(2, { type: 'WITHDRAW', feeMetadata })).feeMetadata).toEqual(feeMetadata);
  });
});

describe('openTransactionCsvStream', () => {
  it('writes a header and every row of every page once, with ISO timestamps', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) =>
      tx(i, { createdAt: '2026-01-02T03:04:05Z', note: i === 7 ? '=cmd()' : null }),
    );
    let done: { rows: number; error?: unknown } | undefined;
    const stream = await openTransactionCsvStream(
      fakeClient(rows),
      'w',
      filtersOf(DEFAULT_TRANSACTION_SEARCH),
      (o) => {
        done = o;
      },
    );
    const text = await readAll(stream);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(TRANSACTION_CSV_HEADER.join(','));
    expect(lines).toHaveLength(1204);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1203);
    expect(lines[1]).toContain('2026-01-02T03:04:05.000Z');
    expect(text).toContain(",'=cmd(),");
    expect(done).toEqual({ rows: 1203 });
  });

  it('answers an empty file with the header only', async () => {
    const text = await readAll(
      await openTransactionCsvStream(fakeClient([]), 'w', filtersOf(DEFAULT_TRANSACTION_SEARCH), () => {}),
    );
    expect(text).toBe(`${TRANSACTION_CSV_HEADER.join(',')}\r\n`);
  });

  it('fails before streaming when the first page is refused', async () => {
    const client = {
      wallets: { listTransactions: async () => Promise.reject(new Error('401')) },
    } as unknown as CustodyClient;
    await expect(
      openTransactionCsvStream(client, 'w', filtersOf(DEFAULT_TRANSACTION_SEARCH), () => {}),
    ).rejects.toThrow('401');
  });
});
