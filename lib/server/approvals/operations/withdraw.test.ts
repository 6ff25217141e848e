// The native balance a withdrawal's review shows and warns on: the source pays the amounts it sends and, unless
// it is a gasless child address (whose fees the master wallet pays), the network fees.
import { describe, expect, it } from 'vitest';
import { nativeAfterSending } from './withdraw';

const base = { symbol: 'ETH', decimals: 18, nativeSpent: [] as string[] };

describe('nativeAfterSending', () => {
  it('charges the fee to a paying source, whose balance the estimate gives', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0.5',
      payerBalance: '0.5',
      gasless: false,
      feeTotal: '0.01',
      nativeSpent: ['0.2'],
    });
    expect(out).toEqual({ before: '0.5', after: '0.29', warnings: [] });
  });

  it('warns when a paying source cannot cover the amounts and the fees', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '0',
      gasless: false,
      feeTotal: '0.01',
    });
    expect(out.after).toBe('-0.01');
    expect(out.warnings).toEqual(['Not enough ETH for the amounts and network fees.']);
  });

  it("does not charge a gasless child address's fees to it: a token withdrawal with no native coin is fine", () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '3.2',
      gasless: true,
      feeTotal: '0.01',
    });
    expect(out).toEqual({ before: '0', after: '0', warnings: [] });
  });

  it('warns when the master wallet cannot pay a gasless address’s fees, naming the master wallet', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '0',
      payerBalance: '0.001',
      gasless: true,
      feeTotal: '0.01',
    });
    expect(out.warnings).toEqual([
      "The master wallet pays this gasless address's network fees and holds 0.001 ETH, less than the 0.01 ETH they need.",
    ]);
  });

  it('keeps the source balance when no estimate came back', () => {
    const out = nativeAfterSending({
      ...base,
      sourceBefore: '1',
      payerBalance: null,
      gasless: false,
      feeTotal: null,
      nativeSpent: ['0.4'],
    });
    expect(out).toEqual({ before: '1', after: '0.6', warnings: [] });
  });
});
