import { describe, expect, it } from 'vitest';
import { safeCallbackPath } from './callback-url';

describe('safeCallbackPath', () => {
  it.each([
    ['/approvals', '/approvals'],
    ['/wallets/abc?tab=addresses', '/wallets/abc?tab=addresses'],
    ['/audit?q=a%20b#top', '/audit?q=a%20b#top'],
    ['/', '/'],
    ['approvals', '/approvals'],
  ])('follows the console path %s', (value, expected) => {
    expect(safeCallbackPath(value)).toBe(expected);
  });

  it.each([
    '/%5Clocalhost:4611/x',
    '/%5clocalhost:4611/x',
    '/\\localhost:4611/x',
    '/\\evil',
    '\\\\evil',
    '//evil',
    '//evil.example/path',
    '///evil.example',
    'https://evil',
    'http://evil.example/approvals',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\t/evil',
    '/%09/evil',
    ' //evil',
    'https:evil',
    '',
    '   ',
  ])('sends %j to /', (value) => {
    expect(safeCallbackPath(value)).toBe('/');
  });

  it('sends anything that is not a string to /', () => {
    expect(safeCallbackPath(undefined)).toBe('/');
    expect(safeCallbackPath(null)).toBe('/');
    expect(safeCallbackPath(['/approvals'])).toBe('/');
  });

  it('follows an absolute URL only when it is on the console origin it is given', () => {
    expect(safeCallbackPath('http://localhost:4611/approvals?x=1', 'http://localhost:4611')).toBe(
      '/approvals?x=1',
    );
    expect(safeCallbackPath('http://localhost:4612/approvals', 'http://localhost:4611')).toBe('/');
    expect(safeCallbackPath('https://localhost:4611/approvals', 'http://localhost:4611')).toBe('/');
  });

  it('refuses an overlong value', () => {
    expect(safeCallbackPath(`/${'a'.repeat(3000)}`)).toBe('/');
  });
});
