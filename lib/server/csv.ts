import 'server-only';

// CSV writing (RFC 4180 quoting) that is safe to open in a spreadsheet.

// A cell starting with one of these is run as a formula by Excel, LibreOffice and Sheets (CSV injection):
// `=HYPERLINK(...)` in a note or reference must stay text.
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A plain decimal number, negative included. A spreadsheet reads it as the number it is, never as a formula, so
 * the guard leaves it alone: amounts written as strings (`-24150.56`) stay numbers that add up in a Net column.
 */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One cell: formula-like text prefixed with a single quote, then quoted when it holds , " CR or LF. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Numbers are data, not formulas; only text that would be read as a formula is neutralised.
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 asks. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
