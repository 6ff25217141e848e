// Reading a payout file costs bounded work: decompression bombs, lying zip headers, far rows and columns, giant
// cells and endless CSV files are refused with the sentence naming the limit, without inflating or parsing them
// in full, while other work keeps running; good files read exactly as before. Every workbook is built here.

import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { MAX_PAYOUT_FILE_BYTES, MAX_PAYOUT_ROWS } from '@/lib/validation/payouts';
import {
  ALICE,
  deflatedBomb,
  inline,
  MAIN,
  MB,
  PAYMENT_ROWS,
  SHARED_STRINGS_HEAD,
  SHARED_STRINGS_TAIL,
  SHEET_HEAD,
  SHEET_TAIL,
  sharedStrings,
  WORKBOOK,
  WORKBOOK_RELATIONS,
  workbookOf,
  zipOf,
} from '@/test/workbooks';
import { readPayoutFile } from './file';
import { PAYOUT_FILE_LIMITS as LIMITS } from './file-limits';
import { unpackWorkbook } from './workbook';

const unpack = (bytes: Uint8Array) => unpackWorkbook(bytes, LIMITS, Date.now() + LIMITS.timeMs);
const PART_REFUSAL = `A part of the workbook unpacks to more than ${LIMITS.entryBytes / MB} MB`;
const WORKBOOK_REFUSAL = `The workbook unpacks to more than ${LIMITS.unpackedBytes / MB} MB`;

/** One cell of 100 MB (the label) in a file of about 100 KB. */
let oneCellBomb: Buffer;
beforeAll(async () => {
  oneCellBomb = await deflatedBomb(SHARED_STRINGS_HEAD, 'A', 100 * MB, SHARED_STRINGS_TAIL);
});

describe('a workbook built here', () => {
  it('reads like a saved one, so the refusals below are about their limits only', async () => {
    expect(await readPayoutFile('pay.xlsx', workbookOf(PAYMENT_ROWS, sharedStrings('Alice')))).toEqual({
      ok: true,
      rows: [{ line: 2, address: ALICE, amount: '1.5', asset: 'USDC', reference: '', label: 'Alice' }],
    });
  });

  it('reads the same with its parts stored uncompressed, and checks them the same', async () => {
    const stored = (rows: string) =>
      zipOf(
        [
          WORKBOOK,
          WORKBOOK_RELATIONS,
          { name: 'xl/worksheets/sheet1.xml', text: SHEET_HEAD + rows + SHEET_TAIL },
          sharedStrings('Alice'),
        ].map((part) => ({ ...part, stored: true })),
      );
    expect(await readPayoutFile('pay.xlsx', stored(PAYMENT_ROWS))).toEqual({
      ok: true,
      rows: [{ line: 2, address: ALICE, amount: '1.5', asset: 'USDC', reference: '', label: 'Alice' }],
    });
    expect(await readPayoutFile('pay.xlsx', stored(`${PAYMENT_ROWS}<row r="99999"/>`))).toEqual({
      ok: false,
      error: expect.stringContaining(`more than ${LIMITS.rows} rows`),
    });
  });
});

describe('decompression bombs', () => {
  it('refuses one 100 MB cell in a 100 KB file at the part limit, inflating barely past it', async () => {
    const bomb = workbookOf(PAYMENT_ROWS, {
      name: 'xl/sharedStrings.xml',
      deflated: oneCellBomb,
      declaredSize: 100 * MB,
    });
    expect(bomb.byteLength).toBeLessThan(MAX_PAYOUT_FILE_BYTES);
    expect(await readPayoutFile('pay.xlsx', bomb)).toEqual({
      ok: false,
      error: expect.stringContaining(PART_REFUSAL),
    });
    const unpacked = await unpack(bomb);
    expect(unpacked.ok).toBe(false);
    expect(!unpacked.ok && unpacked.inflatedBytes).toBeLessThan(LIMITS.entryBytes + MB);
  });

  it('counts the bytes inflated, not the size the zip declares', async () => {
    const lying = workbookOf(PAYMENT_ROWS, {
      name: 'xl/sharedStrings.xml',
      deflated: oneCellBomb,
      declaredSize: 1000,
    });
    expect(await readPayoutFile('pay.xlsx', lying)).toEqual({
      ok: false,
      error: expect.stringContaining(PART_REFUSAL),
    });
  });

  it('refuses a sheet XML that inflates to 100 MB of rows at the part limit', async () => {
    const row = `<row><c t="inlineStr"><is><t>${ALICE}</t></is></c></row>`;
    const rows = await deflatedBomb(SHEET_HEAD, row, 100 * MB, SHEET_TAIL);
    const bomb = zipOf([WORKBOOK, WORKBOOK_RELATIONS, { name: 'xl/worksheets/sheet1.xml', deflated: rows }]);
    expect(await readPayoutFile('pay.xlsx', bomb)).toEqual({
      ok: false,
      error: expect.stringContaining(PART_REFUSAL),
    });
  });

  it('adds the parts up: many parts each under the part limit pass the workbook limit', async () => {
    const part = await deflatedBomb('<x>', 'A', LIMITS.entryBytes * 0.75, '</x>');
    const many = zipOf([
      WORKBOOK,
      WORKBOOK_RELATIONS,
      ...[1, 2, 3, 4].map((n) => ({ name: `xl/media/notes${n}.xml`, deflated: part, declaredSize: 10 })),
    ]);
    expect(await readPayoutFile('pay.xlsx', many)).toEqual({
      ok: false,
      error: expect.stringContaining(WORKBOOK_REFUSAL),
    });
    const unpacked = await unpack(many);
    expect(!unpacked.ok && unpacked.inflatedBytes).toBeLessThan(LIMITS.unpackedBytes + MB);
  });

  it('refuses a zip of more files than a workbook holds before inflating any', async () => {
    const parts = Array.from({ length: LIMITS.entries + 1 }, (_, i) => ({
      name: `xl/p${i}.xml`,
      text: '<p/>',
    }));
    const crowded = zipOf([WORKBOOK, WORKBOOK_RELATIONS, ...parts]);
    expect(await unpack(crowded)).toEqual({
      ok: false,
      error: `The workbook holds more than ${LIMITS.entries} files; a payout workbook holds about ten. Copy the payments into a new workbook and upload that.`,
      inflatedBytes: 0,
    });
  });

  it('never blocks other work: a counter driven by the event loop moves while a bomb is read', async () => {
    const bomb = workbookOf(PAYMENT_ROWS, { name: 'xl/sharedStrings.xml', deflated: oneCellBomb });
    let ticks = 0;
    let settled = false;
    const tick = () => {
      if (settled) return;
      ticks += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const read = await readPayoutFile('pay.xlsx', bomb).finally(() => {
      settled = true;
    });
    expect(read.ok).toBe(false);
    // Inflation runs on the thread pool in 64 KB chunks; the counter runs between them (about 30 here).
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});

describe('far rows, far columns and long cells', () => {
  it('refuses a cell on row 1,048,576 or column XFD in a tiny file, however the tag is written', async () => {
    const rowsRefusal = `The file has more than ${LIMITS.rows} rows`;
    const columnsRefusal = `The file has cells beyond column ${LIMITS.columns}; a payout file needs five columns (address, amount, asset, reference, label).`;
    const cases: Array<[string, string]> = [
      [`${PAYMENT_ROWS}<row r="1048576">${inline('A1048576', 'far')}</row>`, rowsRefusal],
      [`${PAYMENT_ROWS}<row>${inline('A1048576', 'far')}</row>`, rowsRefusal],
      [`<row r="1">${inline('XFD1', 'far')}</row>`, columnsRefusal],
      // A prefix and a character reference read by the reader as r="XFD1" are read the same way here.
      [
        `<row r="1"><x:c xmlns:x="${MAIN}" x:r="&#88;FD1" t="inlineStr"><is><t>far</t></is></x:c></row>`,
        columnsRefusal,
      ],
    ];
    for (const [rows, refusal] of cases) {
      const read = await readPayoutFile('pay.xlsx', workbookOf(rows, sharedStrings('Alice')));
      expect(read).toEqual({ ok: false, error: expect.stringContaining(refusal) });
    }
  });

  it('reads a sheet whose far cells are styled but empty: the reader skips them at no cost', async () => {
    const styled = PAYMENT_ROWS.replace('</row><row r="2">', '<c r="XFD1" s="1"/></row><row r="2">');
    const read = await readPayoutFile('pay.xlsx', workbookOf(styled, sharedStrings('Alice')));
    expect(read.ok && read.rows).toEqual([
      { line: 2, address: ALICE, amount: '1.5', asset: 'USDC', reference: '', label: 'Alice' },
    ]);
  });

  it('refuses a sheet with more rows than the limit, blank ones included', async () => {
    const blank = '<row/>'.repeat(LIMITS.rows);
    expect(
      await readPayoutFile('pay.xlsx', workbookOf(PAYMENT_ROWS + blank, sharedStrings('Alice'))),
    ).toEqual({
      ok: false,
      error: expect.stringContaining(`more than ${LIMITS.rows} rows`),
    });
  });

  it('refuses a cell longer than any payout field, naming its line', async () => {
    const workbook = await writeXlsxFile([
      ['address', 'amount', 'asset', 'label'],
      [ALICE, 1, 'USDC', 'x'.repeat(LIMITS.cellChars + 1)],
    ]).toBuffer();
    expect(await readPayoutFile('pay.xlsx', new Uint8Array(workbook))).toEqual({
      ok: false,
      error: `Line 2 has a cell longer than ${LIMITS.cellChars} characters; no payout field is that long.`,
    });
  });

  it('refuses a workbook that takes longer than the time limit', async () => {
    const read = await readPayoutFile('pay.xlsx', workbookOf(PAYMENT_ROWS, sharedStrings('Alice')), {
      ...LIMITS,
      timeMs: 0,
    });
    expect(read).toEqual({ ok: false, error: expect.stringContaining('took more than 0 seconds to read') });
  });
});

describe('CSV files', () => {
  it('refuses a million empty lines at the row limit', async () => {
    const lines = new TextEncoder().encode(`address,amount,asset\n${'\n'.repeat(1_000_000)}`);
    expect(await readPayoutFile('pay.csv', lines)).toEqual({
      ok: false,
      error: `The file has more than ${LIMITS.rows} rows; at most ${MAX_PAYOUT_ROWS} payments fit one payout. Split it into smaller files.`,
    });
  });

  it('refuses a line of a million commas before parsing it, but reads commas inside quotes', async () => {
    const wide = new TextEncoder().encode(`address,amount,asset\n${ALICE},1,USDC${','.repeat(1_000_000)}\n`);
    expect(await readPayoutFile('pay.csv', wide)).toEqual({
      ok: false,
      error: `The file has cells beyond column ${LIMITS.columns}; a payout file needs five columns (address, amount, asset, reference, label).`,
    });
    const label = `"${'INV-1, '.repeat(60)}""final"""`;
    const quoted = await readPayoutFile(
      'pay.csv',
      new TextEncoder().encode(`address,amount,asset,label\n${ALICE},1,USDC,${label}\n`),
    );
    expect(quoted.ok && quoted.rows[0]?.label).toBe(`${'INV-1, '.repeat(60)}"final"`);
  });

  it('refuses one cell that fills the file, naming its line', async () => {
    const text = `address,amount,asset,label\n${ALICE},1,USDC,"${'x'.repeat(MAX_PAYOUT_FILE_BYTES - 200)}"\n`;
    expect(await readPayoutFile('pay.csv', new TextEncoder().encode(text))).toEqual({
      ok: false,
      error: `Line 2 has a cell longer than ${LIMITS.cellChars} characters; no payout field is that long.`,
    });
  });
});

describe('good files', () => {
  it('hands read-excel-file a workbook it reads exactly as the original', async () => {
    const original = await writeXlsxFile([
      ['address', 'amount', 'asset', 'reference', 'label', 'paid on', 'urgent'],
      [
        ALICE,
        0.1,
        'USDC',
        'x-1',
        'Alice, Ltd',
        { value: new Date(Date.UTC(2026, 10, 2)), format: 'yyyy-mm-dd' },
        true,
      ],
      [null, '0.000001', 'ETH', null, 'Zoë “quoted” & <tagged>', null, false],
      [ALICE, 1e-7, 'USDC', 'x-3', 'ü'.repeat(280), 45000.5, null],
    ]).toBuffer();
    const unpacked = await unpack(new Uint8Array(original));
    expect(unpacked.ok).toBe(true);
    if (unpacked.ok) expect(await readSheet(unpacked.zip)).toEqual(await readSheet(original));
  });

  it(`reads a workbook of ${MAX_PAYOUT_ROWS} payments with full-length labels`, async () => {
    const rows = Array.from({ length: MAX_PAYOUT_ROWS }, (_, i) => [
      ALICE,
      i + 0.25,
      'USDC',
      `ref-${i}`,
      'l'.repeat(280),
    ]);
    const workbook = await writeXlsxFile([
      ['address', 'amount', 'asset', 'reference', 'label'],
      ...rows,
    ]).toBuffer();
    const read = await readPayoutFile('pay.xlsx', new Uint8Array(workbook));
    expect(read.ok && read.rows.length).toBe(MAX_PAYOUT_ROWS);
    expect(read.ok && read.rows.at(-1)).toEqual({
      line: MAX_PAYOUT_ROWS + 1,
      address: ALICE,
      amount: '999.25',
      asset: 'USDC',
      reference: `ref-${MAX_PAYOUT_ROWS - 1}`,
      label: 'l'.repeat(280),
    });
  });
});
