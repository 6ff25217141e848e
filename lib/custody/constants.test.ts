import { describe, expect, it } from 'vitest';
import { serviceHoldsKey } from './constants';

describe('serviceHoldsKey', () => {
  it('holds the key of an address it derived, not of a whitelisted external one', () => {
    expect(serviceHoldsKey({ type: 'INTERNAL' })).toBe(true);
    expect(serviceHoldsKey({ type: 'EXTERNAL' })).toBe(false);
  });

  it('claims no key for a type it does not know', () => {
    expect(serviceHoldsKey({ type: 'IMPORTED' })).toBe(false);
  });
});
