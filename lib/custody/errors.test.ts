import { describe, expect, it, vi } from 'vitest';
import { CustodyError, genericMessage, isCustodyError } from './errors';

const at = { method: 'POST', path: '/v1/wallets/w/withdraw' };

describe('CustodyError', () => {
  it.each([
    ['http', 400, false, false],
    ['http', 404, false, false],
    ['http', 429, true, false],
    ['http', 500, true, true],
    ['http', 503, true, true],
    ['timeout', 0, true, true],
    ['network', 0, true, true],
    ['malformed', 200, false, true],
  ] as const)('%s %i: retryable %s, outcome unknown %s', (kind, status, retryable, outcomeUnknown) => {
    const error = new CustodyError({ ...at, kind, status, message: 'x' });
    expect(error.retryable).toBe(retryable);
    expect(error.outcomeUnknown).toBe(outcomeUnknown);
  });

  it('is an Error with its own name, and keeps details out of JSON', () => {
    const error = new CustodyError({
      ...at,
      kind: 'malformed',
      status: 200,
      message: 'bad',
      details: { reason: 'schema', issues: [{ path: 'data.id', code: 'invalid_type', message: 'm' }] },
    });
    expect(error).toBeInstanceOf(Error);
    expect(isCustodyError(error)).toBe(true);
    expect(isCustodyError(new Error('x'))).toBe(false);
    expect(error.name).toBe('CustodyError');
    expect(error.details?.issues).toHaveLength(1);
    expect(JSON.stringify(error)).not.toContain('data.id');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      message: 'bad',
      status: 200,
      kind: 'malformed',
    });
  });

  it('has a generic message for every status', () => {
    expect(genericMessage(401)).toMatch(/API key/);
    expect(genericMessage(502)).toBe('The custody service failed (HTTP 502)');
    expect(genericMessage(418)).toBe('The custody service answered HTTP 418');
  });
});

describe('CustodyError across bundles', () => {
  it('recognises an error made by another copy of the class (another server bundle) by its brand', async () => {
    // A fresh module instance stands in for the copy another bundle holds.
    vi.resetModules();
    const copy = './errors?copy';
    const other: typeof import('./errors') = await import(/* @vite-ignore */ copy);
    const foreign = new other.CustodyError({ kind: 'http', status: 401, message: 'Invalid API key', ...at });
    expect(other.CustodyError).not.toBe(CustodyError);
    expect(foreign instanceof CustodyError).toBe(true);
    expect(new Error('plain') instanceof CustodyError).toBe(false);
    expect({ status: 401 } instanceof CustodyError).toBe(false);
  });
});
