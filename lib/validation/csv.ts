// The one CSV reader: every CSV the console takes (a payout file, a withdrawal or address book import, pasted
// schedule recipients) is read by papaparse here. RFC 4180 quoting: a field opening with a quote may hold
// commas, doubled quotes and line breaks. Each record keeps the line it starts on, so a problem is shown next
// to its line. No server module: the forms load it when they first read a CSV, to keep papaparse out of the
// page's first load.
import Papa from 'papaparse';

export interface CsvLineError {
  /** 1-based line in the pasted text or file. */
  line: number;
  message: string;
}

interface CsvRecord {
  /** The line the record starts on (1-based). */
  line: number;
  fields: string[];
}

interface CsvRead {
  /** Every record before the first quoting mistake, blank lines included (as one empty field). */
  records: CsvRecord[];
  /**
   * The first quoting mistake, on the line of the record holding it: a quote never closed, or text after a
   * closing quote. That record and the ones after it are left out (papaparse reads them as one).
   */
  quoteError: { line: number; unclosed: boolean; message: string } | null;
}

/**
 * The text with a byte order mark dropped and every line break as `\n`: `\r\n`, `\n` and a lone `\r` (old Mac
 * files) all end a line, mixed in one file too.
 */
const normalised = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/** The delimiter papaparse guesses from the first ten records (`,` when it cannot tell). */
export function csvDelimiter(sample: string): string {
  return Papa.parse<string[]>(normalised(sample), { preview: 10, newline: '\n' }).meta.delimiter;
}

/** Reads the text's records, every field as text, with the line each starts on. */
export function readCsv(text: string, delimiter = ','): CsvRead {
  const parsed = Papa.parse<string[]>(normalised(text), {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: false,
  });
  const mistake = parsed.errors.find((e) => e.type === 'Quotes');
  const kept = mistake ? (mistake.row ?? 0) : parsed.data.length;
  const records: CsvRecord[] = [];
  // Papaparse's rows are records, not lines: a quoted field may span lines, so lines are counted from the fields.
  let line = 1;
  for (const row of parsed.data.slice(0, kept)) {
    const fields = row.map((f) => String(f ?? ''));
    records.push({ line, fields });
    line += 1 + fields.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
  }
  return {
    records,
    quoteError: mistake
      ? { line, unclosed: mistake.code === 'MissingQuotes', message: mistake.message }
      : null,
  };
}

/**
 * Records of a comma-separated text without its blank lines, and its quoting mistake as a line error. What the
 * imports typed or pasted in a form read (withdrawals, address book, schedule recipients).
 */
export function parseCsvRecords(text: string): { records: CsvRecord[]; errors: CsvLineError[] } {
  const { records, quoteError } = readCsv(text);
  const errors: CsvLineError[] = [];
  if (quoteError)
    errors.push({
      line: quoteError.line,
      message: quoteError.unclosed
        ? 'A quoted field is not closed.'
        : 'A quoted field has more text after its closing quote.',
    });
  return {
    records: records.filter((r) => !(r.fields.length === 1 && r.fields[0]!.trim() === '')),
    errors,
  };
}
