import { describe, expect, it } from 'vitest';
import { referencesInDoubt } from './requests';

describe('referencesInDoubt', () => {
  it('names only the items the service has shown no transaction for, and counts the rest', () => {
    const items = [
      { reference: 'pay-1', transactionId: 'tx-1' },
      { reference: 'pay-2', transactionId: 'tx-2' },
      { reference: 'pay-3', transactionId: null },
    ];
    expect(referencesInDoubt(items)).toEqual({ references: ['pay-3'], atService: 2 });
  });

  it('is about every item when none has a transaction yet', () => {
    const items = [
      { reference: 'wd-1', transactionId: null },
      { reference: 'wd-2', transactionId: null },
    ];
    expect(referencesInDoubt(items)).toEqual({ references: ['wd-1', 'wd-2'], atService: 0 });
  });
});
