import { describe, expect, it } from 'vitest';
import type { SpendingRule } from '@/lib/approvals/limits';
import {
  type Contribution,
  contributionsOf,
  evaluateLimits,
  type LimitHistoryEntry,
  refusalMessage,
  remainingOf,
  windowStart,
} from './limits';

const NOW = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';

function rule(values: Partial<SpendingRule> = {}): SpendingRule {
  return {
    id: 'rule-1',
    walletId: 'w1',
    scope: 'wallet',
    windowHours: 24,
    unit: 'usd',
    assetSymbol: null,
    limit: '1000',
    onBreach: 'approvals',
    extraApprovals: 1,
    ...values,
  };
}

function usd(amount: string, destination: string | null = A, symbol = 'USDC'): Contribution {
  return { destination, symbol, amount, usd: amount, pricedOnly: false };
}

function past(
  hoursAgo: number,
  contributions: Contribution[],
  who: Partial<Pick<LimitHistoryEntry, 'walletId' | 'requesterId'>> = {},
): LimitHistoryEntry {
  return {
    walletId: who.walletId ?? 'w1',
    requesterId: who.requesterId ?? 'alice',
    createdAt: new Date(NOW.getTime() - hoursAgo * HOUR),
    contributions,
  };
}

const candidate = (contributions: Contribution[], requesterId = 'alice', walletId = 'w1') => ({
  walletId,
  requesterId,
  contributions,
});

describe('the rolling window', () => {
  it('starts the window length before now', () => {
    expect(windowStart(NOW, 24).toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(windowStart(NOW, 1).toISOString()).toBe('2026-11-25T11:00:00.000Z');
  });

  it('counts requests made inside the window and drops those made at its start or before', () => {
    const history = [past(23.99, [usd('300')]), past(24, [usd('500')]), past(30, [usd('700')])];
    const check = evaluateLimits([rule()], history, candidate([usd('600')]), NOW);
    expect(check.rows).toHaveLength(1);
    const [row] = check.rows;
    expect(row).toMatchObject({
      used: '300.00',
      request: '600.00',
      remainingAfter: '100.00',
      breached: false,
    });
    // remaining after = limit − used − request
    expect(Number(row!.limit) - Number(row!.used) - Number(row!.request)).toBe(Number(row!.remainingAfter));
  });

  it('a one-hour window forgets what a day-long one still counts', () => {
    const history = [past(2, [usd('900')])];
    const hourly = evaluateLimits([rule({ windowHours: 1 })], history, candidate([usd('600')]), NOW);
    const daily = evaluateLimits([rule({ windowHours: 24 })], history, candidate([usd('600')]), NOW);
    expect(hourly.rows[0]).toMatchObject({ used: '0.00', breached: false });
    expect(daily.rows[0]).toMatchObject({ used: '900.00', remainingAfter: '-500.00', breached: true });
  });
});

describe('a limit of $1,000 a day on a wallet', () => {
  it('lets a $600 request through, and a second one needs the extra approval', () => {
    const first = evaluateLimits([rule()], [], candidate([usd('600')]), NOW);
    expect(first).toMatchObject({ extraApprovals: 0, refusedBy: null });
    expect(first.rows[0]).toMatchObject({ used: '0.00', request: '600.00', remainingAfter: '400.00' });
    const second = evaluateLimits([rule()], [past(0.1, [usd('600')])], candidate([usd('600')]), NOW);
    expect(second).toMatchObject({ extraApprovals: 1, refusedBy: null });
    expect(second.rows[0]).toMatchObject({ remainingAfter: '-200.00', breached: true });
  });

  it('refuses the second one when the rule says so, naming the rule and by how much', () => {
    const refusing = rule({ onBreach: 'refuse', extraApprovals: 0 });
    const second = evaluateLimits([refusing], [past(0.1, [usd('600')])], candidate([usd('600')]), NOW);
    expect(second.refusedBy).not.toBeNull();
    expect(second.extraApprovals).toBe(0);
    expect(refusalMessage(second.refusedBy!)).toBe(
      'Refused by the spending limit $1,000.00 per 24 hours per wallet (wallet w1): $600.00 already counted in the window, this request adds $600.00, $200.00 over the limit of $1,000.00.',
    );
  });

  it('a request exactly at the limit passes; a cent more does not', () => {
    expect(
      evaluateLimits([rule()], [past(1, [usd('400')])], candidate([usd('600')]), NOW).rows[0],
    ).toMatchObject({
      remainingAfter: '0.00',
      breached: false,
    });
    expect(
      evaluateLimits([rule()], [past(1, [usd('400')])], candidate([usd('600.01')]), NOW).rows[0],
    ).toMatchObject({ remainingAfter: '-0.01', breached: true });
  });

  it('counts only its own wallet, and a rule for every wallet counts each wallet on its own', () => {
    const history = [past(1, [usd('900')], { walletId: 'w2' })];
    expect(evaluateLimits([rule()], history, candidate([usd('600')]), NOW).rows[0]?.used).toBe('0.00');
    expect(evaluateLimits([rule()], history, candidate([usd('600')], 'alice', 'w2'), NOW).rows).toHaveLength(
      0,
    );
    const everyWallet = rule({ walletId: null });
    expect(evaluateLimits([everyWallet], history, candidate([usd('600')]), NOW).rows[0]?.used).toBe('0.00');
    expect(
      evaluateLimits([everyWallet], history, candidate([usd('600')], 'alice', 'w2'), NOW).rows[0]?.used,
    ).toBe('900.00');
  });
});

describe('scopes, units and unknown prices', () => {
  it('a requester rule adds up that person only', () => {
    const perRequester = rule({ scope: 'requester', windowHours: 1, limit: '5000' });
    const history = [past(0.5, [usd('4000')], { requesterId: 'bob' }), past(0.5, [usd('1000')])];
    expect(evaluateLimits([perRequester], history, candidate([usd('600')]), NOW).rows[0]).toMatchObject({
      used: '1000.00',
      remainingAfter: '3400.00',
    });
    expect(
      evaluateLimits([perRequester], history, candidate([usd('1100')], 'bob'), NOW).rows[0],
    ).toMatchObject({ used: '4000.00', remainingAfter: '-100.00', breached: true });
  });

  it('a destination rule adds up per recipient address, one row per address of the request', () => {
    const perDestination = rule({ scope: 'destination', limit: '500' });
    const history = [past(1, [usd('450', A), usd('100', B)])];
    const check = evaluateLimits([perDestination], history, candidate([usd('100', A), usd('100', B)]), NOW);
    expect(check.rows.map((r) => [r.destination, r.used, r.remainingAfter, r.breached])).toEqual([
      [A, '450.00', '-50.00', true],
      [B, '100.00', '300.00', false],
    ]);
  });

  it('an asset rule counts that asset in its own units, exactly', () => {
    const usdt = rule({ unit: 'asset', assetSymbol: 'USDT', limit: '1000.5' });
    const history = [past(1, [usd('0.1', A, 'USDT'), usd('0.2', A, 'USDT'), usd('999', A, 'USDC')])];
    const check = evaluateLimits([usdt], history, candidate([usd('1000.2', A, 'USDT')]), NOW);
    expect(check.rows[0]).toMatchObject({
      used: '0.3',
      request: '1000.2',
      remainingAfter: '0',
      breached: false,
    });
    // A request without the asset is not concerned by the rule.
    expect(evaluateLimits([usdt], history, candidate([usd('5', A, 'USDC')]), NOW).rows).toHaveLength(0);
  });

  it('a USD rule may count one asset only', () => {
    const onlyUsdt = rule({ assetSymbol: 'USDT' });
    const history = [past(1, [usd('900', A, 'USDC'), usd('300', A, 'USDT')])];
    expect(
      evaluateLimits([onlyUsdt], history, candidate([usd('600', A, 'USDT')]), NOW).rows[0],
    ).toMatchObject({
      used: '300.00',
      remainingAfter: '100.00',
    });
  });

  it('a withdrawal of unknown USD value counts as over a USD limit; an unpriced swap is not counted', () => {
    const unknown: Contribution = {
      destination: A,
      symbol: 'XYZ',
      amount: '1',
      usd: null,
      pricedOnly: false,
    };
    const check = evaluateLimits([rule({ onBreach: 'refuse' })], [], candidate([unknown]), NOW);
    expect(check.rows[0]).toMatchObject({ request: null, remainingAfter: null, breached: true });
    expect(refusalMessage(check.refusedBy!)).toContain('is unknown, so it counts as over the limit');
    const swap: Contribution = { destination: null, symbol: 'XYZ', amount: '1', usd: null, pricedOnly: true };
    expect(evaluateLimits([rule({ onBreach: 'refuse' })], [], candidate([swap]), NOW).rows).toHaveLength(0);
  });

  it('the strictest broken rule decides the extra approvals; a refusing rule refuses', () => {
    const rules = [
      rule({ id: 'a', extraApprovals: 1 }),
      rule({ id: 'b', extraApprovals: 2, limit: '500' }),
      rule({ id: 'c', limit: '100000', onBreach: 'refuse' }),
    ];
    const check = evaluateLimits(rules, [], candidate([usd('1200')]), NOW);
    expect(check.extraApprovals).toBe(2);
    expect(check.refusedBy).toBeNull();
  });
});

describe('what is left before an amount is typed', () => {
  it('is the limit less what the window holds, never below zero; destination rules wait for an address', () => {
    const rules = [
      rule(),
      rule({ id: 'r2', scope: 'requester', limit: '500' }),
      rule({ id: 'r3', scope: 'destination' }),
    ];
    const history = [past(1, [usd('600')]), past(2, [usd('100')], { requesterId: 'bob' })];
    const left = remainingOf(rules, history, { walletId: 'w1', requesterId: 'alice' }, NOW);
    expect(left.map((r) => [r.used, r.remaining])).toEqual([
      ['700.00', '300.00'],
      ['600.00', '0.00'],
      [null, null],
    ]);
    for (const row of left.slice(0, 1))
      expect(Number(row.limit) - Number(row.used)).toBe(Number(row.remaining));
  });
});

describe('what a request moves', () => {
  it('reads a withdrawal per recipient with the USD values of its review', () => {
    const payload = {
      items: [
        { address: '0x00000000000000000000000000000000000000AA', symbol: 'USDC', amount: '600' },
        { address: B, symbol: 'ETH', amount: '0.1' },
      ],
    };
    const review = { items: [{ usd: 600 }, { usd: null }] };
    expect(contributionsOf('withdraw', payload, review)).toEqual([
      { destination: A, symbol: 'USDC', amount: '600', usd: '600.00', pricedOnly: false },
      { destination: B, symbol: 'ETH', amount: '0.1', usd: null, pricedOnly: false },
    ]);
  });

  it('reads a payout file per row with the USD values of its review rows', () => {
    const payload = { items: [{ address: A, symbol: 'USDC', amount: '10', line: 2 }] };
    expect(contributionsOf('payout', payload, { rows: [{ usd: 10 }] })).toEqual([
      { destination: A, symbol: 'USDC', amount: '10', usd: '10.00', pricedOnly: false },
    ]);
  });

  it('reads a swap as the amount it sells', () => {
    expect(contributionsOf('swap', { fromSymbol: 'USDC', amount: '2' }, { amountUsd: 2 })).toEqual([
      { destination: null, symbol: 'USDC', amount: '2', usd: '2.00', pricedOnly: true },
    ]);
  });

  it('reads a permit or an authorization as what its spender or recipient may take, priced by its review', () => {
    const review = (
      units: string,
      valueUsd: string | null,
      spender = '0x00000000000000000000000000000000000000AA',
    ) => ({
      description: {
        kind: 'permit',
        spender,
        token: { symbol: 'USDC' },
        value: { units, raw: '0', unlimited: false },
      },
      valueUsd,
    });
    expect(contributionsOf('typedDataSign', {}, review('250', '249.98'))).toEqual([
      {
        destination: '0x00000000000000000000000000000000000000aa',
        symbol: 'USDC',
        amount: '250',
        usd: '249.98',
        pricedOnly: false,
      },
    ]);
    // Unpriced: counts as over a USD limit, as an unpriced withdrawal does.
    expect(contributionsOf('typedDataSign', {}, review('250', null))[0]?.usd).toBeNull();
    // A document the console could not read moves nothing it can count (it needs the highest quorum instead).
    expect(contributionsOf('typedDataSign', {}, { description: { kind: 'other', spender: null } })).toEqual(
      [],
    );
  });
});
