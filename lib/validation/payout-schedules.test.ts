import { describe, expect, it } from 'vitest';
import { payoutScheduleSchema } from './payout-schedule-schema';
import { parseRecipientLines, scheduleTimingOf } from './payout-schedules';

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
});
