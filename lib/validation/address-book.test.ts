import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { MAX_BOOK_ENTRIES, parseAddressBookCsv, splitTags } from './address-book';

const evm = { chain: { isEvmCompatible: true }, defaultChain: 'Ethereum' };
const A = '0x1111111111111111111111111111111111111a2b';
const B = '0x2222222222222222222222222222222222222222';

describe('address book CSV', () => {
  it('reads entries by header, checksums addresses, splits tags and fills the wallet’s chain', () => {
    const parsed = parseAddressBookCsv(`name,address,tags,notes\nAcme,${A},supplier;eu,"net 30, EUR"\n`, evm);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries).toEqual([
      {
        name: 'Acme',
        address: getAddress(A),
        chain: 'Ethereum',
        tags: ['supplier', 'eu'],
        notes: 'net 30, EUR',
      },
    ]);
  });

  it('reads its own export back: the service’s rows are left out and formula-guarded text restored', () => {
    const exported = [
      'name,address,chain,tags,notes,source,added_utc,usable_from_utc',
      `Acme,${A},Ethereum,supplier,'=cmd,console,2026-11-25T10:00:00.000Z,2026-11-26T10:00:00.000Z`,
      `Payroll,${B},Ethereum,,,whitelisted,2026-11-01T10:00:00.000Z,`,
    ].join('\r\n');
    const parsed = parseAddressBookCsv(exported, evm);
    expect(parsed.errors).toEqual([]);
    expect(parsed.skipped).toBe(1);
    expect(parsed.entries.map((e) => [e.name, e.notes])).toEqual([['Acme', '=cmd']]);
  });

  it('names every line in error: bad address, missing name, repeated address, control characters', () => {
    const parsed = parseAddressBookCsv(
      [
        `name,address`,
        `Acme,${A}`,
        `Typo,0x123`,
        `,${B}`,
        `Again,${A.toUpperCase().replace('0X', '0x')}`,
        `Bad\u0007,${B}`,
      ].join('\n'),
      evm,
    );
    expect(parsed.entries.map((e) => e.name)).toEqual(['Acme']);
    expect(parsed.errors.map((e) => e.line)).toEqual([3, 4, 5, 6]);
    expect(parsed.errors[0]!.message).toContain('40 characters');
    expect(parsed.errors[1]!.message).toContain('name');
    expect(parsed.errors[2]!.message).toBe('The same address as line 2.');
  });

  it('needs a header naming name and address, and at least one entry', () => {
    expect(parseAddressBookCsv(`Acme,${A}`, evm).errors[0]!.message).toContain('name the columns');
    expect(parseAddressBookCsv('', evm).errors[0]!.message).toBe('The file is empty.');
    expect(parseAddressBookCsv('name,address\n', evm).errors[0]!.message).toBe('The file has no entries.');
  });

  it(`takes at most ${MAX_BOOK_ENTRIES} entries per import`, () => {
    const lines = Array.from(
      { length: MAX_BOOK_ENTRIES + 1 },
      (_, i) => `E${i},0x${(i + 1).toString(16).padStart(40, '0')}`,
    );
    const parsed = parseAddressBookCsv(['name,address', ...lines].join('\n'), evm);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]!.message).toContain(`At most ${MAX_BOOK_ENTRIES}`);
  });

  it('splits tags on commas and semicolons without repeats', () => {
    expect(splitTags(' a, b;a ;; c ')).toEqual(['a', 'b', 'c']);
  });
});
