import { describe, expect, it } from 'vitest';
import { checkEvmAddress, checkRecipientAddress } from './addresses';

const VALID = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const WRONG_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';

const BAD: Array<[string, string]> = [
  ['', 'Enter a recipient address.'],
  ['  ', 'Enter a recipient address.'],
  ['0x5aAeb6053F3E94C9b9A09f33669435E7 Ef1BeAed', 'Remove the spaces from the address.'],
  ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'An EVM address starts with 0x.'],
  ['vitalik.eth', 'Enter the address itself, not an ENS name.'],
  ['0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', 'Start the address with a lowercase 0x.'],
  ['0x', 'An EVM address has 40 characters after 0x; this one has 0.'],
  [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe',
    'An EVM address has 40 characters after 0x; this one has 39.',
  ],
  [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0',
    'An EVM address has 40 characters after 0x; this one has 41.',
  ],
  [
    '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg',
    'An address contains only the characters 0-9 and a-f after 0x.',
  ],
  [
    '0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea.d',
    'An address contains only the characters 0-9 and a-f after 0x.',
  ],
  [
    '0xZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
    'An address contains only the characters 0-9 and a-f after 0x.',
  ],
  [
    WRONG_CHECKSUM,
    'The address checksum (its upper- and lower-case letters) does not match: check it for a typo.',
  ],
  [
    '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    'The address checksum (its upper- and lower-case letters) does not match: check it for a typo.',
  ],
  ['0x0000000000000000000000000000000000000000', 'The zero address burns funds; it cannot be a recipient.'],
];

describe('checkEvmAddress', () => {
  it.each(BAD)('refuses %j: %s', (input, message) => {
    expect(checkEvmAddress(input)).toEqual({ ok: false, message });
  });

  it('accepts a correctly checksummed address as is', () => {
    expect(checkEvmAddress(VALID)).toEqual({ ok: true, address: VALID });
  });

  it('accepts a lowercase or uppercase address and returns it checksummed', () => {
    expect(checkEvmAddress(VALID.toLowerCase())).toEqual({ ok: true, address: VALID });
    expect(checkEvmAddress(`0x${VALID.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: VALID });
    expect(checkEvmAddress(`  ${VALID.toLowerCase()}  `)).toEqual({ ok: true, address: VALID });
  });

  it('checks only presence on a chain that is not EVM compatible', () => {
    expect(checkRecipientAddress('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', { isEvmCompatible: false }).ok).toBe(
      true,
    );
    expect(checkRecipientAddress('', { isEvmCompatible: false })).toEqual({
      ok: false,
      message: 'Enter a recipient address.',
    });
    expect(checkRecipientAddress('abc', { isEvmCompatible: true }).ok).toBe(false);
  });
});
