// Payout files: reading CSV and XLSX (a workbook built here), the row checks with each row's problems, the
// split into service batches, and totals added up from the rows.

import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { batchRanges, payoutTotals } from '@/lib/approvals/payouts';
import { payoutFileSchema } from '@/lib/validation/payout-schema';
import { MAX_PAYOUT_FILE_BYTES, MAX_PAYOUT_ROWS } from '@/lib/validation/payouts';
import { readPayoutFile } from './file';
import { checkPayoutRows } from './rows';

const encode = (text: string) => new TextEncoder().encode(text);
const ALICE = '0x52908400098527886E0F7030069857D2E4169EE7';
const BOB = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const assets = [
  { id: 'usdc-id', symbol: 'USDC', decimals: 6 },
  { id: 'eth-id', symbol: 'ETH', decimals: 18 },
  { id: 'old-id', symbol: 'OLD', decimals: 18, isActive: false },
];
const context = { assets, chain: { isEvmCompatible: true }, balances: null };

describe('reading a payout file', () => {
  it('reads a CSV by its header names, keeping each row’s line', async () => {
    const read = await readPayoutFile(
      'pay.csv',
      encode(
        `\uFEFFRecipient,Amount,Asset,Reference,Label\r\n${ALICE},1.5,USDC,pay-1,"Alice, Ltd"\r\n\r\n${BOB},2,eth,,\r\n`,
      ),
    );
    expect(read).toEqual({
      ok: true,
      rows: [
        { line: 2, address: ALICE, amount: '1.5', asset: 'USDC', reference: 'pay-1', label: 'Alice, Ltd' },
        { line: 4, address: BOB, amount: '2', asset: 'eth', reference: '', label: '' },
      ],
    });
  });

  it('counts lines inside a quoted cell that spans two lines', async () => {
    const read = await readPayoutFile(
      'pay.csv',
      encode(`address,amount,asset,label\n${ALICE},1,USDC,"two\nlines"\n${BOB},2,USDC,x\n`),
    );
    expect(read.ok && read.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('reads an XLSX workbook, numbers as the decimals people typed', async () => {
    const workbook = await writeXlsxFile([
      ['address', 'amount', 'asset', 'reference'],
      [ALICE, 0.1, 'USDC', 'x-1'],
      [BOB, '0.000001', 'USDC', null],
      [ALICE, 1e-7, 'ETH', 'x-3'],
    ]).toBuffer();
    const read = await readPayoutFile('pay.xlsx', new Uint8Array(workbook));
    expect(read).toEqual({
      ok: true,
      rows: [
        { line: 2, address: ALICE, amount: '0.1', asset: 'USDC', reference: 'x-1', label: '' },
        { line: 3, address: BOB, amount: '0.000001', asset: 'USDC', reference: '', label: '' },
        { line: 4, address: ALICE, amount: '0.0000001', asset: 'ETH', reference: 'x-3', label: '' },
      ],
    });
  });

  it('refuses a file without the columns it needs, naming them', async () => {
    const read = await readPayoutFile('pay.csv', encode(`to,value\n${ALICE},1\n`));
    expect(read).toEqual({ ok: false, error: expect.stringContaining('Missing: asset') });
  });

  it('refuses what is too large, empty, mislabelled or longer than a payout holds', async () => {
    expect(await readPayoutFile('big.csv', new Uint8Array(MAX_PAYOUT_FILE_BYTES + 1))).toEqual({
      ok: false,
      error: expect.stringContaining('larger than 1 MB'),
    });
    expect((await readPayoutFile('empty.csv', new Uint8Array())).ok).toBe(false);
    expect(await readPayoutFile('fake.xlsx', encode('address,amount,asset\n'))).toEqual({
      ok: false,
      error: 'The file is named .xlsx but is not an Excel workbook.',
    });
    const long = `address,amount,asset\n${`${ALICE},1,USDC\n`.repeat(MAX_PAYOUT_ROWS + 1)}`;
    expect(await readPayoutFile('long.csv', encode(long))).toEqual({
      ok: false,
      error: expect.stringContaining(`at most ${MAX_PAYOUT_ROWS}`),
    });
    expect((await readPayoutFile('bad.csv', new Uint8Array([0xff, 0xfe, 0x00]))).ok).toBe(false);
  });

  it('caps the encoded file in the action input with a sentence', () => {
    const tooLarge = 'A'.repeat(Math.ceil(MAX_PAYOUT_FILE_BYTES / 3) * 4 + 4);
    const parsed = payoutFileSchema.safeParse({
      walletId: 'w',
      source: 'master',
      fileName: 'a.csv',
      content: tooLarge,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('larger than 1 MB');
    expect(
      payoutFileSchema.safeParse({ walletId: 'w', source: 'master', fileName: 'a.xls', content: 'QQ==' })
        .success,
    ).toBe(false);
  });
});

describe('checking the rows', () => {
  const row = (
    line: number,
    fields: Partial<{ address: string; amount: string; asset: string; reference: string; label: string }>,
  ) => ({
    line,
    address: ALICE,
    amount: '1',
    asset: 'USDC',
    reference: '',
    label: '',
    ...fields,
  });

  it('turns clean rows into checksummed, canonical items', () => {
    const checked = checkPayoutRows(
      [
        row(2, { address: ALICE.toLowerCase(), amount: '1.50' }),
        row(3, { asset: 'eth-id', reference: 'r-1', label: 'Bob' }),
      ],
      context,
    );
    expect(checked.ok).toBe(true);
    expect(checked.ok && checked.items).toEqual([
      { line: 2, assetId: 'usdc-id', symbol: 'USDC', decimals: 6, address: ALICE, amount: '1.5' },
      {
        line: 3,
        assetId: 'eth-id',
        symbol: 'ETH',
        decimals: 18,
        address: ALICE,
        amount: '1',
        reference: 'r-1',
        label: 'Bob',
      },
    ]);
  });

  it('keeps each row’s problems next to it: checksum, decimals, asset, reference', () => {
    const badChecksum = ALICE.replace('E0F7', 'e0F7');
    const checked = checkPayoutRows(
      [
        row(2, {}),
        row(3, { address: badChecksum }),
        row(4, { amount: '0.0000001' }),
        row(5, { asset: 'OLD' }),
        row(6, { asset: 'DOGE' }),
        row(7, { reference: 'dup' }),
        row(8, { reference: 'dup' }),
        row(9, { reference: 'has space' }),
      ],
      context,
    );
    expect(checked.ok).toBe(false);
    const problems = Object.fromEntries(checked.rows.map((r) => [r.line, r.problems]));
    expect(problems[2]).toEqual([]);
    expect(problems[3]?.[0]).toMatch(/checksum/i);
    expect(problems[4]?.[0]).toMatch(/6 decimal/);
    expect(problems[5]).toEqual(['Unknown or inactive asset "OLD".']);
    expect(problems[6]).toEqual(['Unknown or inactive asset "DOGE".']);
    expect(problems[7]).toEqual([]);
    expect(problems[8]).toEqual(['The reference is also used on line 7.']);
    expect(problems[9]?.[0]).toContain('64 letters');
    expect(!checked.ok && checked.problemRows).toBe(6);
  });

  it('names an address book entry still in its cooling-off on the row that pays it', () => {
    const waiting = 'Payroll (0x…) can receive money from 2026-11-26 09:00 UTC (in 18 hours).';
    const checked = checkPayoutRows([row(2, { address: ALICE.toLowerCase() }), row(3, { address: BOB })], {
      ...context,
      notPayable: new Map([[ALICE.toLowerCase(), waiting]]),
    });
    expect(checked.ok).toBe(false);
    expect(checked.rows.map((r) => r.problems)).toEqual([[waiting], []]);
  });

  it('adds up each asset against the source’s balance', () => {
    const checked = checkPayoutRows(
      [row(2, { amount: '6' }), row(3, { amount: '5' }), row(4, { asset: 'ETH' })],
      {
        ...context,
        balances: { 'usdc-id': '10', 'eth-id': '3' },
      },
    );
    expect(checked.ok).toBe(false);
    expect(checked.rows[0]?.problems[0]).toContain('total 11 USDC, above the source');
    expect(checked.rows[1]?.problems).toHaveLength(1);
    expect(checked.rows[2]?.problems).toEqual([]);
  });
});

describe('batches and totals', () => {
  it('splits 45 payments into service batches of 20, 20 and 5', () => {
    expect(batchRanges(45)).toEqual([
      { from: 0, to: 20 },
      { from: 20, to: 40 },
      { from: 40, to: 45 },
    ]);
    expect(batchRanges(20)).toEqual([{ from: 0, to: 20 }]);
    expect(batchRanges(1000)).toHaveLength(50);
    expect(batchRanges(0)).toEqual([]);
  });

  it('totals per asset are the exact sum of their rows', () => {
    const rows = [
      ...Array.from({ length: 45 }, () => ({ symbol: 'USDC', amount: '0.1', decimals: 6 })),
      { symbol: 'ETH', amount: '0.000000000000000001', decimals: 18 },
      { symbol: 'ETH', amount: '2', decimals: 18 },
    ];
    expect(payoutTotals(rows)).toEqual([
      { symbol: 'USDC', amount: '4.5', rows: 45 },
      { symbol: 'ETH', amount: '2.000000000000000001', rows: 2 },
    ]);
  });
});
