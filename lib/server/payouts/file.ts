import 'server-only';
// Reading a payout file: CSV with papaparse, XLSX with read-excel-file, both on the server. The first row names
// the columns; each later row keeps its line number so a problem is shown next to the row it belongs to.
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { MAX_PAYOUT_FILE_BYTES, MAX_PAYOUT_ROWS, PAYOUT_FILE_TOO_LARGE } from '@/lib/validation/payouts';

/** One row as the file holds it, every cell as text. */
export interface PayoutFileRow {
  /** Line in the file (CSV) or row number in the sheet (XLSX); the header is 1. */
  line: number;
  address: string;
  amount: string;
  asset: string;
  reference: string;
  label: string;
}

export type PayoutFileRead = { ok: true; rows: PayoutFileRow[] } | { ok: false; error: string };

type Column = Exclude<keyof PayoutFileRow, 'line'>;

/** The header names each column goes by (compared without case, spaces, dashes or underscores). */
const COLUMN_NAMES: Record<Column, string[]> = {
  address: ['address', 'recipient', 'recipientaddress', 'to', 'wallet'],
  amount: ['amount', 'value'],
  asset: ['asset', 'symbol', 'token', 'currency', 'assetid'],
  reference: ['reference', 'ref', 'id', 'paymentreference'],
  label: ['label', 'note', 'name', 'description', 'memo'],
};
const REQUIRED: Column[] = ['address', 'amount', 'asset'];

const normalise = (header: string) => header.toLowerCase().replace(/[\s_\-.]/g, '');

/** Where each column sits in the header row; a sentence naming what is missing otherwise. */
function columnsOf(
  header: string[],
): { ok: true; at: Partial<Record<Column, number>> } | { ok: false; error: string } {
  const names = header.map((h) => normalise(h));
  const at: Partial<Record<Column, number>> = {};
  for (const column of Object.keys(COLUMN_NAMES) as Column[]) {
    const index = names.findIndex((n) => COLUMN_NAMES[column].includes(n));
    if (index >= 0) at[column] = index;
  }
  const missing = REQUIRED.filter((c) => at[c] === undefined);
  if (missing.length > 0)
    return {
      ok: false,
      error: `The first row must name the columns: ${REQUIRED.join(', ')} (and optionally reference, label). Missing: ${missing.join(', ')}.`,
    };
  return { ok: true, at };
}

function rowsOf(table: Array<{ line: number; cells: string[] }>): PayoutFileRead {
  const [header, ...body] = table;
  if (!header) return { ok: false, error: 'The file is empty.' };
  const columns = columnsOf(header.cells);
  if (!columns.ok) return columns;
  const cell = (cells: string[], column: Column) => {
    const index = columns.at[column];
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const rows = body
    .filter((r) => r.cells.some((c) => c.trim() !== ''))
    .map((r) => ({
      line: r.line,
      address: cell(r.cells, 'address'),
      amount: cell(r.cells, 'amount'),
      asset: cell(r.cells, 'asset'),
      reference: cell(r.cells, 'reference'),
      label: cell(r.cells, 'label'),
    }));
  if (rows.length === 0) return { ok: false, error: 'The file has a header but no payments.' };
  if (rows.length > MAX_PAYOUT_ROWS)
    return {
      ok: false,
      error: `The file has ${rows.length} payments; at most ${MAX_PAYOUT_ROWS} fit one payout. Split it into smaller files.`,
    };
  return { ok: true, rows };
}

function readCsv(bytes: Uint8Array): PayoutFileRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'The CSV is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.' };
  }
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) return { ok: false, error: `Line ${(fatal.row ?? 0) + 1}: ${fatal.message}.` };
  // Papaparse's rows are records, not lines; a quoted cell may span lines, so lines are counted from the text.
  const table: Array<{ line: number; cells: string[] }> = [];
  let line = 1;
  for (const cells of parsed.data) {
    table.push({ line, cells: cells.map((c) => String(c ?? '')) });
    line += 1 + cells.reduce((n, c) => n + (String(c).match(/\n/g)?.length ?? 0), 0);
  }
  return rowsOf(table);
}

/** A number cell as the decimal people typed: never exponent notation, never a float's long tail. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

async function readXlsx(bytes: Uint8Array): Promise<PayoutFileRead> {
  let data: unknown[][];
  try {
    data = (await readSheet(Buffer.from(bytes))) as unknown[][];
  } catch {
    return {
      ok: false,
      error: 'The XLSX file could not be read. Save it again from the spreadsheet and retry.',
    };
  }
  return rowsOf(data.map((cells, i) => ({ line: i + 1, cells: cells.map(cellText) })));
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** Reads a payout file by its content (an XLSX file is a zip archive), refusing what is too large. */
export async function readPayoutFile(fileName: string, bytes: Uint8Array): Promise<PayoutFileRead> {
  if (bytes.byteLength > MAX_PAYOUT_FILE_BYTES) return { ok: false, error: PAYOUT_FILE_TOO_LARGE };
  if (bytes.byteLength === 0) return { ok: false, error: 'The file is empty.' };
  const zipped = ZIP_MAGIC.every((b, i) => bytes[i] === b);
  if (/\.xlsx$/i.test(fileName) || zipped) {
    if (!zipped) return { ok: false, error: 'The file is named .xlsx but is not an Excel workbook.' };
    return readXlsx(bytes);
  }
  return readCsv(bytes);
}
