import 'server-only';
// Reading a payout file: CSV with the console's one CSV reader (papaparse, `lib/validation/csv.ts`), XLSX with
// read-excel-file, both on the server. The first row names the columns; each later row keeps its line number so
// a problem is shown next to the row it belongs to. Every read stays within PAYOUT_FILE_LIMITS (file-limits.ts): a workbook is unpacked and checked first (workbook.ts).
import { readSheet } from 'read-excel-file/node';
import { csvDelimiter, readCsv } from '@/lib/validation/csv';
import { MAX_PAYOUT_FILE_BYTES, MAX_PAYOUT_ROWS, PAYOUT_FILE_TOO_LARGE } from '@/lib/validation/payouts';
import { PAYOUT_FILE_LIMITS, type PayoutFileLimits, refusals, XLSX_UNREADABLE } from './file-limits';
import { unpackWorkbook } from './workbook';

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

/** A file's rows as read, each with its line, every cell as text. */
type Table = Array<{ line: number; cells: string[] }>;

function rowsOf(table: Table): PayoutFileRead {
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

/** Refuses a row wider, or a cell longer, than a payout file has before the rows are looked at. */
function tableRows(table: Table, limits: PayoutFileLimits): PayoutFileRead {
  if (table.some((row) => row.cells.length > limits.columns))
    return { ok: false, error: refusals.columns(limits) };
  const long = table.find((row) => row.cells.some((cell) => cell.length > limits.cellChars));
  if (long) return { ok: false, error: refusals.cell(limits, long.line) };
  return rowsOf(table);
}

/** Line breaks in the text (`\n`, or a lone `\r` in old Mac files), counted before papaparse splits it. */
function lineBreaks(text: string): number {
  let lf = 0;
  let cr = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) lf += 1;
    else if (code === 13) cr += 1;
  }
  return Math.max(lf, cr);
}

/**
 * Whether a record has more than `most` fields, quotes read as papaparse reads them (a quote opening a field runs
 * to the next single quote): one pass over the text, so a 1 MB line of commas is refused before papaparse makes a
 * million cells of it.
 */
function hasWideRecord(text: string, delimiter: string, most: number): boolean {
  let fields = 1;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i += 1;
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) i += text[i] === '"' ? 2 : 1;
      i += 1;
    }
    while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') i += 1;
    if (i >= text.length) break;
    if (text[i] === delimiter) {
      fields += 1;
      if (fields > most) return true;
    } else fields = 1;
    i += 1;
  }
  return false;
}

/** Papaparse guesses the delimiter from the first ten records, once per candidate: it is given this much. */
const DELIMITER_SAMPLE = 64 * 1024;

function readCsvFile(bytes: Uint8Array, limits: PayoutFileLimits): PayoutFileRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return { ok: false, error: 'The CSV is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.' };
  }
  // A million empty lines, or one line of a million commas, is refused before papaparse works through it.
  if (lineBreaks(text) > limits.rows) return { ok: false, error: refusals.rows(limits) };
  const delimiter = csvDelimiter(text.slice(0, DELIMITER_SAMPLE));
  if (hasWideRecord(text, delimiter, limits.columns)) return { ok: false, error: refusals.columns(limits) };
  const { records, quoteError } = readCsv(text, delimiter);
  if (quoteError) return { ok: false, error: `Line ${quoteError.line}: ${quoteError.message}.` };
  return tableRows(
    records.map((r) => ({ line: r.line, cells: r.fields })),
    limits,
  );
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

/** The work's value, or 'late' once the deadline passes (the work itself is bounded by the other limits). */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readXlsx(bytes: Uint8Array, limits: PayoutFileLimits): Promise<PayoutFileRead> {
  const deadline = Date.now() + limits.timeMs;
  const unpacked = await unpackWorkbook(bytes, limits, deadline);
  if (!unpacked.ok) return { ok: false, error: unpacked.error };
  const reading = readSheet(unpacked.zip).then(
    (data) => data as unknown[][],
    () => null,
  );
  const data = await beforeDeadline(reading, deadline);
  if (data === 'late') return { ok: false, error: refusals.time(limits) };
  if (!data) return { ok: false, error: XLSX_UNREADABLE };
  return tableRows(
    data.map((cells, i) => ({ line: i + 1, cells: cells.map(cellText) })),
    limits,
  );
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Reads a payout file by its content (an XLSX file is a zip archive), refusing what is too large or would cost
 * more than `limits` to read.
 */
export async function readPayoutFile(
  fileName: string,
  bytes: Uint8Array,
  limits: PayoutFileLimits = PAYOUT_FILE_LIMITS,
): Promise<PayoutFileRead> {
  if (bytes.byteLength > MAX_PAYOUT_FILE_BYTES) return { ok: false, error: PAYOUT_FILE_TOO_LARGE };
  if (bytes.byteLength === 0) return { ok: false, error: 'The file is empty.' };
  const zipped = ZIP_MAGIC.every((b, i) => bytes[i] === b);
  if (/\.xlsx$/i.test(fileName) || zipped) {
    if (!zipped) return { ok: false, error: 'The file is named .xlsx but is not an Excel workbook.' };
    return readXlsx(bytes, limits);
  }
  return readCsvFile(bytes, limits);
}
