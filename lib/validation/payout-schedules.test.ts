import { describe, expect, it } from 'vitest';
import { parseRecipientLines } from './payout-schedule-csv';
import { payoutScheduleSchema } from './payout-schedule-schema';
import { scheduleTimingOf } from './payout-schedules';

const valid = {
  walletId: 'wallet-1',
  name: 'Weekly suppliers',
  source: 'master',
  cadence: 'weekly',
  dayOfWeek: '1',
  dayOfMonth: '',
  timeOfDay: '09:00',
  startsOn: '2026-01-01',
  recipients: [{ address: '0xabc', amount: '1', asset: 'USDC', reference: '', label: '' }],
};

describe('payoutScheduleSchema', () => {
  it('takes a weekly schedule and drops the day that does not apply', () => {
    const parsed = payoutScheduleSchema.parse(valid);
    expect(scheduleTimingOf(parsed)).toEqual({
      cadence: 'weekly',
      dayOfWeek: 1,
      dayOfMonth: null,
      timeOfDay: '09:00',
      startsOn: '2026-01-01',
    });
  });

  it('names the field of each mistake', () => {
    const issues = (values: object) =>
      payoutScheduleSchema.safeParse({ ...valid, ...values }).error?.issues.map((i) => i.path.join('.'));
    expect(issues({ dayOfWeek: '' })).toEqual(['dayOfWeek']);
    expect(issues({ cadence: 'monthly', dayOfMonth: '29' })).toEqual(['dayOfMonth']);
    expect(issues({ cadence: 'once', startsOn: '2020-01-01' })).toEqual(['startsOn']);
    expect(issues({ startsOn: '2026-02-30' })).toEqual(['startsOn']);
    expect(issues({ timeOfDay: '24:00' })).toEqual(['timeOfDay']);
    expect(issues({ recipients: [] })).toEqual(['recipients']);
    expect(issues({ recipients: [{ ...valid.recipients[0], reference: 'r'.repeat(51) }] })).toEqual([
      'recipients.0.reference',
    ]);
  });
});

describe('parseRecipientLines', () => {
  it('reads address,amount,asset[,reference,label], skipping a header and blank lines', () => {
    const text = 'address,amount,asset,reference,label\n0xa, 1.5 ,USDC\n\n0xb,2,ETH,inv-7,Acme, Ltd\n';
    expect(parseRecipientLines(text)).toEqual({
      rows: [
        { address: '0xa', amount: '1.5', asset: 'USDC', reference: '', label: '' },
        { address: '0xb', amount: '2', asset: 'ETH', reference: 'inv-7', label: 'Acme, Ltd' },
      ],
      badLines: [],
    });
  });

  it('names the lines without an address, amount and asset', () => {
    expect(parseRecipientLines('0xa,1\n0xb,2,USDC\n,3,USDC').badLines).toEqual([1, 3]);
  });

  it('reads a quoted label with a comma whole, without its quotes', () => {
    const text = '0xa,1,USDC,inv-1,"Smith, Jones & Co"\r\n0xb,2,USDC,,"say ""hi"", then pay"\r\n';
    expect(parseRecipientLines(text)).toEqual({
      rows: [
        { address: '0xa', amount: '1', asset: 'USDC', reference: 'inv-1', label: 'Smith, Jones & Co' },
        { address: '0xb', amount: '2', asset: 'USDC', reference: '', label: 'say "hi", then pay' },
      ],
      badLines: [],
    });
  });

  it('numbers lines after a quoted label that spans two, and names a quote left open', () => {
    const text = '0xa,1,USDC,,"two\nlines"\n0xb,2\n0xc,3,USDC,,"open\n0xd,4,USDC';
    expect(parseRecipientLines(text)).toEqual({
      rows: [{ address: '0xa', amount: '1', asset: 'USDC', reference: '', label: 'two\nlines' }],
      badLines: [3],
      quoteError: { line: 4, message: 'A quoted field is not closed.' },
    });
  });
});
