import 'server-only';
// How much work reading one payout file may cost the server, and the sentence that refuses a file past each
// limit. The upload cap (MAX_PAYOUT_FILE_BYTES) bounds only the compressed file: a 100 KB workbook can unpack
// to gigabytes, and a small sheet can name row 1,048,576. A real payout of MAX_PAYOUT_ROWS payments unpacks to
// well under 1 MB, uses five columns and has no cell longer than a label (280 characters); the limits leave room
// for blank rows and extra columns. Rows times columns bounds the cells papaparse or read-excel-file may have to
// make (100,000).
import { MAX_PAYOUT_ROWS } from '@/lib/validation/payouts';

export interface PayoutFileLimits {
  /** The workbook's XML parts together, counted as they are inflated (a zip's declared sizes can lie). */
  unpackedBytes: number;
  /** One XML part of the workbook, counted as it is inflated. */
  entryBytes: number;
  /** Files inside the workbook's zip. */
  entries: number;
  /** Rows of a sheet (blank ones and the highest row number included) or lines of a CSV file. */
  rows: number;
  /** The highest column a cell holding a value may sit in. */
  columns: number;
  /** Characters in one cell. */
  cellChars: number;
  /** Time to read one workbook, from its first byte to its rows. */
  timeMs: number;
}

const MB = 1024 * 1024;

export const PAYOUT_FILE_LIMITS: PayoutFileLimits = {
  unpackedBytes: 2 * MB,
  entryBytes: 1 * MB,
  entries: 200,
  rows: 2 * MAX_PAYOUT_ROWS,
  columns: 50,
  cellChars: 1000,
  timeMs: 10_000,
};

const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

export const XLSX_UNREADABLE =
  'The XLSX file could not be read. Save it again from the spreadsheet and retry.';

/** The sentences that refuse a file past a limit; each names the limit and what a payout file needs. */
export const refusals = {
  unpacked: (l: PayoutFileLimits) =>
    `The workbook unpacks to more than ${megabytes(l.unpackedBytes)}; a payout of ${MAX_PAYOUT_ROWS} payments unpacks to well under 1 MB. Copy the payments into a new workbook and upload that.`,
  entry: (l: PayoutFileLimits) =>
    `A part of the workbook unpacks to more than ${megabytes(l.entryBytes)}; a payout of ${MAX_PAYOUT_ROWS} payments unpacks to well under 1 MB. Copy the payments into a new workbook and upload that.`,
  entries: (l: PayoutFileLimits) =>
    `The workbook holds more than ${l.entries} files; a payout workbook holds about ten. Copy the payments into a new workbook and upload that.`,
  rows: (l: PayoutFileLimits) =>
    `The file has more than ${l.rows} rows; at most ${MAX_PAYOUT_ROWS} payments fit one payout. Split it into smaller files.`,
  columns: (l: PayoutFileLimits) =>
    `The file has cells beyond column ${l.columns}; a payout file needs five columns (address, amount, asset, reference, label).`,
  cell: (l: PayoutFileLimits, line: number) =>
    `Line ${line} has a cell longer than ${l.cellChars} characters; no payout field is that long.`,
  time: (l: PayoutFileLimits) =>
    `The workbook took more than ${l.timeMs / 1000} seconds to read. Copy the payments into a new workbook and upload that.`,
};
