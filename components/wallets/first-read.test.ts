import { describe, expect, it } from 'vitest';
import { firstReadFailure } from './first-read';

const state = { hasData: false, queryError: null, initialError: null, isInitial: true };

describe('firstReadFailure', () => {
  it('shows the server’s failed read at once, before the browser has tried again', () => {
    expect(firstReadFailure({ ...state, initialError: 'The custody service is unavailable.' })).toBe(
      'The custody service is unavailable.',
    );
  });

  it('prefers the browser’s own failed read to the server’s', () => {
    expect(firstReadFailure({ ...state, initialError: 'server said', queryError: 'browser said' })).toBe(
      'browser said',
    );
    expect(firstReadFailure({ ...state, isInitial: false, queryError: 'browser said' })).toBe('browser said');
  });

  it('shows nothing in place of rows that are there, or of a server error for other filters', () => {
    expect(firstReadFailure({ ...state, hasData: true, queryError: 'x', initialError: 'y' })).toBeNull();
    expect(firstReadFailure({ ...state, isInitial: false, initialError: 'y' })).toBeNull();
    expect(firstReadFailure(state)).toBeNull();
  });
});
