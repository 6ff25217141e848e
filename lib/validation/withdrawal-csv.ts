// A withdrawal's recipients imported from CSV (`address,amount,asset,reference,note`), read by the console's one
// CSV reader. The form loads this module at its first import, with papaparse.
import { checkRecipientAddress } from './addresses';
import { checkAmount } from './amounts';
import { type CsvLineError, parseCsvRecords } from './csv';
import { type AssetOption, MAX_RECIPIENTS, type WithdrawalFormRow } from './withdrawals';

const CSV_COLUMNS = ['address', 'amount', 'asset', 'reference', 'note'] as const;

/**
 * Reads `address,amount,asset,reference,note` lines (header optional; asset by symbol or id). Lines that
 * cannot become a row are reported and skipped; rows whose values are wrong are kept (so the person can fix
 * them in the form) and reported too.
 */
export function parseWithdrawalCsv(
  text: string,
  context: { assets: AssetOption[]; chain: { isEvmCompatible?: boolean | null } },
): { rows: WithdrawalFormRow[]; errors: CsvLineError[] } {
  const { records, errors } = parseCsvRecords(text);
  const rows: WithdrawalFormRow[] = [];
  const first = records[0];
  if (
    first &&
    first.fields[0]?.trim().toLowerCase() === 'address' &&
    first.fields[1]?.trim().toLowerCase() === 'amount'
  )
    records.shift();
  if (records.length === 0 && errors.length === 0) errors.push({ line: 1, message: 'The CSV has no rows.' });
  for (const { line, fields } of records) {
    if (fields.length < 3 || fields.length > CSV_COLUMNS.length) {
      errors.push({
        line,
        message: `Expected 3 to 5 columns (${CSV_COLUMNS.join(',')}), found ${fields.length}.`,
      });
      continue;
    }
    const [address = '', amount = '', assetText = '', reference = '', note = ''] = fields.map((f) =>
      f.trim(),
    );
    const asset = context.assets.find(
      (a) =>
        a.isActive !== false && (a.id === assetText || a.symbol.toLowerCase() === assetText.toLowerCase()),
    );
    if (!asset) {
      errors.push({
        line,
        message: assetText ? `Unknown or inactive asset "${assetText}".` : 'The asset is missing.',
      });
      continue;
    }
    if (rows.length >= MAX_RECIPIENTS) {
      errors.push({
        line,
        message: `At most ${MAX_RECIPIENTS} recipients per request; this line was left out.`,
      });
      continue;
    }
    const addressCheck = checkRecipientAddress(address, context.chain);
    if (!addressCheck.ok) errors.push({ line, message: addressCheck.message });
    const amountCheck = checkAmount(amount, asset.decimals, asset.symbol);
    if (!amountCheck.ok) errors.push({ line, message: amountCheck.message });
    rows.push({
      address: addressCheck.ok ? addressCheck.address : address,
      amount,
      assetId: asset.id,
      reference,
      note,
      metadata: '',
    });
  }
  return { rows, errors };
}
