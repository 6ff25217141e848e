// Who pays a withdrawal's network fee, as its review says it: the master wallet for a gasless child address.
import { describe, expect, it } from 'vitest';
import type { ReviewSource } from './types';
import { type NetworkFeePayer, networkFeePayerText, reviewItemReference } from './withdrawals';

const child: ReviewSource = {
  kind: 'address',
  address: '0x00000000000000000000000000000000000000aa',
  name: 'Customer 42',
  addressId: 'address-1',
};
const master: ReviewSource = {
  kind: 'master',
  address: '0x00000000000000000000000000000000000000cc',
  name: 'Treasury',
  addressId: null,
};

function fee(paidBy?: NetworkFeePayer) {
  return { symbol: 'ETH', total: '0.0004', totalUsd: 1.2, error: null, ...(paidBy ? { paidBy } : {}) };
}

describe('networkFeePayerText', () => {
  it('names the master wallet for a gasless child address', () => {
    expect(networkFeePayerText({ source: child, fee: fee('masterWallet') })).toBe(
      'Master wallet (gasless withdrawals are on for this address)',
    );
  });

  it('names the child address itself, and the coin it pays in, when gasless withdrawals are off', () => {
    expect(networkFeePayerText({ source: child, fee: fee('source') })).toBe('This address, from its own ETH');
  });

  it('says nothing for the master wallet, which always pays its own fees', () => {
    expect(networkFeePayerText({ source: master, fee: fee('source') })).toBeNull();
  });

  it('says nothing when the review did not record the payer', () => {
    expect(networkFeePayerText({ source: child, fee: fee() })).toBeNull();
  });
});

describe('reviewItemReference', () => {
  it('shows the typed reference in a preview, whose upstream references are blank until creation', () => {
    expect(reviewItemReference({ reference: '', clientReference: 'INV-2041' })).toBe('INV-2041');
  });

  it('says the reference is assigned on creation only when none was typed', () => {
    expect(reviewItemReference({ reference: '', clientReference: null })).toBe('assigned on creation');
  });

  it('shows the upstream reference of a created request', () => {
    expect(reviewItemReference({ reference: 'req-1-0', clientReference: null })).toBe('req-1-0');
  });
});
