// A payout schedule's recipients pasted as CSV lines, read by the console's one CSV reader. The form loads this
// module when it first reads pasted lines, with papaparse.
import { type CsvLineError, parseCsvRecords } from './csv';
import type { ScheduleRecipientValues } from './payout-schedules';

/**
 * Pasted lines `address,amount,asset[,reference,label]` as recipient rows; a first line naming the columns is
 * skipped. A label may hold commas: quoted (`"Acme, Ltd"`), or everything after the fourth cell. Lines with
 * fewer than three cells are named by number; a quote left open (or followed by more text) is `quoteError`, and
 * the lines from it on are not read.
 */
export function parseRecipientLines(text: string): {
  rows: ScheduleRecipientValues[];
  badLines: number[];
  quoteError?: CsvLineError;
} {
  const { records, errors } = parseCsvRecords(text);
  const rows: ScheduleRecipientValues[] = [];
  const badLines: number[] = [];
  for (const { line, fields } of records) {
    const cells = fields.map((c) => c.trim());
    if (line === 1 && cells[0]?.toLowerCase() === 'address') continue;
    const [address = '', amount = '', asset = '', reference = '', ...label] = cells;
    if (!address || !amount || !asset) {
      badLines.push(line);
      continue;
    }
    rows.push({ address, amount, asset, reference, label: label.join(', ') });
  }
  const [quoteError] = errors;
  return quoteError ? { rows, badLines, quoteError } : { rows, badLines };
}
