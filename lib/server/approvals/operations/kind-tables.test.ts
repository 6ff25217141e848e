// Every kind the approval engine registers has its traits, and the lists of kinds the limits and the address book
// query by are read from those traits.
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_KINDS } from '@/lib/approvals/configuration';
import {
  kindsWhere,
  OPERATION_KIND_TRAITS,
  OPERATION_KIND_WORDS,
  OPERATION_KINDS,
  traitsOf,
} from '@/lib/approvals/kinds';
import { contributionsOf, isLimitedKind, LIMITED_KINDS } from '../limits';
import { OPERATION_TYPES, OPERATIONS } from './registry';

const registered = Object.keys(OPERATION_TYPES).sort();

describe('the kinds’ tables', () => {
  it('hold every registered kind and no other', () => {
    expect([...OPERATION_KINDS].sort()).toEqual(registered);
    expect(Object.keys(OPERATION_KIND_TRAITS).sort()).toEqual(registered);
    expect(Object.keys(OPERATION_KIND_WORDS).sort()).toEqual(registered);
  });

  it('keep a configuration result for exactly the configuration kinds, which include every kind the console carries out', () => {
    expect(kindsWhere((t) => t.result === 'configuration').sort()).toEqual([...CONFIGURATION_KINDS].sort());
    for (const operation of OPERATIONS.filter((o) => o.scope === 'console'))
      expect(OPERATION_KIND_TRAITS[operation.key].result, operation.key).toBe('configuration');
    expect(kindsWhere((t) => t.result === 'payoutBatches')).toEqual(['payout']);
  });

  it('know no traits for a kind the console does not register', () => {
    expect(traitsOf('sweep')).toBeNull();
    expect(traitsOf('swap')).toBe(OPERATION_KIND_TRAITS.swap);
  });
});

describe('spending limits by kind', () => {
  it('apply to the kinds whose traits say how they count, and the history query reads that list', () => {
    expect(LIMITED_KINDS).toEqual(kindsWhere((t) => t.limits !== null));
    expect([...LIMITED_KINDS].sort()).toEqual(
      ['contractSign', 'contractWrite', 'payout', 'swap', 'typedDataSign', 'withdraw', 'withdrawSign'].sort(),
    );
    for (const kind of OPERATION_KINDS) expect(isLimitedKind(kind), kind).toBe(LIMITED_KINDS.includes(kind));
    expect(isLimitedKind('sweep')).toBe(false);
  });

  it('count a swap by the amount sold and a withdrawal by its recipients, and nothing for a kind they do not apply to', () => {
    const items = {
      items: [{ address: '0x1111111111111111111111111111111111111111', amount: '3', symbol: 'USDC' }],
    };
    expect(contributionsOf('swap', { fromSymbol: 'USDC', amount: '2', ...items }, {})).toEqual([
      { destination: null, symbol: 'USDC', amount: '2', usd: null, pricedOnly: true },
    ]);
    expect(contributionsOf('withdrawSign', items, { items: [{ usd: 3 }] })).toEqual([
      {
        destination: '0x1111111111111111111111111111111111111111',
        symbol: 'USDC',
        amount: '3',
        usd: '3.00',
        pricedOnly: false,
      },
    ]);
    expect(contributionsOf('retry', items, {})).toEqual([]);
    expect(contributionsOf('userCreate', items, {})).toEqual([]);
  });
});
