import { describe, expect, it } from 'vitest';
import { masterWalletFeePayment } from './fee-metadata';

const MASTER = '0x00000000000000000000000000000000000000cc';

describe('masterWalletFeePayment', () => {
  it("reads a gasless withdrawal's fee as paid by the master wallet, at the address it names", () => {
    expect(
      masterWalletFeePayment({ gasless: true, feePaidBy: 'MASTER_WALLET', feePayerAddress: MASTER }),
    ).toEqual({ payerAddress: MASTER });
  });

  it('keeps the master wallet as payer when no address is named', () => {
    expect(masterWalletFeePayment({ feePaidBy: 'MASTER_WALLET' })).toEqual({ payerAddress: null });
    expect(masterWalletFeePayment({ feePaidBy: 'MASTER_WALLET', feePayerAddress: 42 })).toEqual({
      payerAddress: null,
    });
  });

  it('finds no master wallet payment where the sender paid or nothing is said', () => {
    for (const metadata of [
      null,
      undefined,
      'MASTER_WALLET',
      [],
      {},
      { gasless: false },
      { feePaidBy: 'SENDER' },
    ])
      expect(masterWalletFeePayment(metadata)).toBeNull();
  });
});
