import { describe, expect, it, vi } from 'vitest';
import { showFieldErrors } from './show-field-errors';

type Values = { email: string; name: string; code: string };

const formWithSetError = () => ({ setError: vi.fn() });

describe('showFieldErrors', () => {
  it('puts each of the action’s field errors under its field, focusing none unless asked', () => {
    const form = formWithSetError();
    const shown = showFieldErrors<Values>(form, { email: 'Taken', name: 'Too long' });
    expect(shown).toBe(true);
    expect(form.setError.mock.calls).toEqual([
      ['email', { type: undefined, message: 'Taken' }, { shouldFocus: false }],
      ['name', { type: undefined, message: 'Too long' }, { shouldFocus: false }],
    ]);
  });

  it('focuses the first field only, when asked', () => {
    const form = formWithSetError();
    showFieldErrors<Values>(form, { email: 'Taken', name: 'Too long' }, { focus: true, type: 'server' });
    expect(form.setError.mock.calls.map((call) => [call[0], call[1].type, call[2].shouldFocus])).toEqual([
      ['email', 'server', true],
      ['name', 'server', false],
    ]);
  });

  it('leaves keys outside `fields` to the banner, and maps the action’s keys with `fieldFor`', () => {
    const form = formWithSetError();
    expect(showFieldErrors<Values>(form, { walletId: 'Unknown' }, { fields: ['code'] })).toBe(false);
    expect(showFieldErrors<Values>(form, undefined)).toBe(false);
    expect(form.setError).not.toHaveBeenCalled();
    showFieldErrors<Values>(
      form,
      { twoFactorCode: 'Wrong code' },
      { fieldFor: () => 'code', fields: ['code'] },
    );
    expect(form.setError).toHaveBeenCalledWith(
      'code',
      { type: undefined, message: 'Wrong code' },
      { shouldFocus: false },
    );
  });
});
