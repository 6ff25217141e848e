// Address book entries as the form, the CSV import and the actions take them: one schema for the form and
// its action, one CSV reader shared by the import preview in the browser and the action on the server.
import { z } from 'zod';
import { MAX_COOLING_OFF_SECONDS } from '@/lib/approvals/address-book';
import { addressKey, checkRecipientAddress } from './addresses';
import { type CsvLineError, parseCsvRecords } from './csv';
import { plainText } from './text';

/** One request adds or changes at most this many entries (a CSV import is one request). */
export const MAX_BOOK_ENTRIES = 200;
export const MIN_COOLING_OFF_SECONDS = 5;
const MAX_TAGS = 20;

const walletIdSchema = plainText().trim().min(1, 'Choose a wallet.').max(100);

export const addressBookEntrySchema = z.object({
  walletId: walletIdSchema,
  /** The console entry changed; empty for a new one. */
  entryId: z.union([z.literal(''), z.uuid()]),
  name: plainText().trim().min(1, 'Enter a name.').max(100, 'At most 100 characters.'),
  address: plainText().trim().min(1, 'Enter the address.').max(200, 'The address is too long.'),
  chain: plainText().trim().min(1, 'Enter the chain.').max(50, 'At most 50 characters.'),
  tags: plainText()
    .max(500, 'At most 500 characters.')
    .refine((t) => splitTags(t).length <= MAX_TAGS, `At most ${MAX_TAGS} tags.`)
    .refine((t) => splitTags(t).every((tag) => tag.length <= 40), 'A tag has at most 40 characters.'),
  notes: plainText({ multiline: true }).max(1000, 'At most 1,000 characters.'),
});
export type AddressBookEntryValues = z.infer<typeof addressBookEntrySchema>;

export const addressBookImportSchema = z.object({
  walletId: walletIdSchema,
  csv: z.string().min(1, 'Choose or paste a CSV file.').max(200_000, 'The file is too large.'),
});

export const coolingOffSchema = z.object({
  coolingOffMinutes: z
    .string()
    .trim()
    .refine((v) => /^\d+(\.\d+)?$/.test(v), { message: 'Enter a number of minutes.' })
    .transform(Number)
    .refine(
      (m) => m * 60 >= MIN_COOLING_OFF_SECONDS && m * 60 <= MAX_COOLING_OFF_SECONDS,
      `Between ${MIN_COOLING_OFF_SECONDS} seconds and 30 days.`,
    ),
  /** The destination policy (money goes only to address book entries past their cooling-off); absent: unchanged. */
  destinationPolicy: z.boolean().optional(),
});

/** Tags as typed: separated by commas or semicolons, trimmed, without repeats. */
export function splitTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;]/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** An entry as a request carries it: the address checked (checksummed on EVM chains) and tags split. */
export interface BookEntryInput {
  id?: string;
  name: string;
  address: string;
  chain: string;
  tags: string[];
  notes: string;
}

/** The form's values as an entry of a request, or the field error of the address. */
export function entryOfForm(
  values: AddressBookEntryValues,
  chain: { isEvmCompatible?: boolean | null },
): { ok: true; entry: BookEntryInput } | { ok: false; fieldErrors: Record<string, string> } {
  const check = checkRecipientAddress(values.address, chain);
  if (!check.ok) return { ok: false, fieldErrors: { address: check.message } };
  return {
    ok: true,
    entry: {
      ...(values.entryId ? { id: values.entryId } : {}),
      name: values.name,
      address: check.address,
      chain: values.chain,
      tags: splitTags(values.tags),
      notes: values.notes,
    },
  };
}

/** Columns of the export; the import reads `name` and `address`, and `chain`, `tags`, `notes` when present. */
export const ADDRESS_BOOK_CSV_COLUMNS = [
  'name',
  'address',
  'chain',
  'tags',
  'notes',
  'source',
  'added_utc',
  'usable_from_utc',
] as const;

export interface AddressBookCsv {
  entries: BookEntryInput[];
  errors: CsvLineError[];
  /** Rows of the service's own entries (source `whitelisted` or `beneficiary`) in a re-imported export. */
  skipped: number;
}

/**
 * Reads an address book CSV with a header row (`name,address` at least; the export's own columns are
 * accepted). Any line in error is reported; an import goes through only without errors.
 */
export function parseAddressBookCsv(
  text: string,
  options: { chain: { isEvmCompatible?: boolean | null }; defaultChain: string },
): AddressBookCsv {
  const { records, errors } = parseCsvRecords(text);
  const result: AddressBookCsv = { entries: [], errors: [...errors], skipped: 0 };
  const [header, ...rows] = records;
  if (!header) {
    result.errors.push({ line: 1, message: 'The file is empty.' });
    return result;
  }
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  if (at('name') < 0 || at('address') < 0) {
    result.errors.push({
      line: header.line,
      message: 'The first line must name the columns: name,address,…',
    });
    return result;
  }
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    const cell = (name: string) => (at(name) >= 0 ? (fields[at(name)] ?? '').trim() : '');
    const source = cell('source').toLowerCase();
    if (source && source !== 'console') {
      result.skipped += 1;
      continue;
    }
    // The export writes formula-like text with a leading quote: read it back as it was.
    const text = (name: string) => cell(name).replace(/^'(?=[=+\-@])/, '');
    const values = {
      walletId: 'csv',
      entryId: '',
      name: text('name'),
      address: cell('address'),
      chain: cell('chain') || options.defaultChain,
      tags: text('tags'),
      notes: text('notes'),
    };
    const parsed = addressBookEntrySchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      result.errors.push({
        line,
        message: `${String(issue?.path[0] ?? 'row')}: ${issue?.message ?? 'invalid'}`,
      });
      continue;
    }
    const entry = entryOfForm(parsed.data, options.chain);
    if (!entry.ok) {
      result.errors.push({ line, message: `address: ${entry.fieldErrors.address}` });
      continue;
    }
    const key = addressKey(entry.entry.address);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      result.errors.push({ line, message: `The same address as line ${earlier}.` });
      continue;
    }
    seen.set(key, line);
    result.entries.push(entry.entry);
  }
  if (result.entries.length > MAX_BOOK_ENTRIES)
    result.errors.push({
      line: header.line,
      message: `At most ${MAX_BOOK_ENTRIES} entries per import; this file has ${result.entries.length}.`,
    });
  else if (result.entries.length === 0 && result.errors.length === 0)
    result.errors.push({ line: header.line, message: 'The file has no entries.' });
  return result;
}
