// The action body check against what the framework's own reply encoder writes: every legitimate body passes,
// broken, deep, oversized and reference-forging bodies are refused with a sentence.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  ACTION_BODY_LIMIT_BYTES,
  ACTION_BODY_MAX_DEPTH,
  BODY_MALFORMED,
  BODY_TOO_LARGE,
  checkActionFormRows,
  checkActionTextBody,
} from './action-body';

const require = createRequire(import.meta.url);
const { encodeReply } = require('next/dist/compiled/react-server-dom-webpack/client.node') as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

async function verdictOf(args: unknown[]) {
  const body = await encodeReply(args);
  if (typeof body === 'string') return checkActionTextBody(body);
  const rows: Array<[string, string]> = [];
  body.forEach((value, name) => {
    if (typeof value === 'string') rows.push([name, value]);
  });
  return checkActionFormRows(rows);
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: [nested(depth - 1)] });

describe('action bodies as the encoder writes them', () => {
  it.each([
    ['an object', [{ walletId: 'w1', rows: [{ address: '0xabc', amount: '1.5' }] }]],
    ['text starting with $', [{ name: '$USDC rule', note: '$$ twice', other: '$1' }]],
    ['undefined, NaN, Infinity, -0', [{ a: undefined, b: Number.NaN, c: Number.POSITIVE_INFINITY, d: -0 }]],
    ['a date and a bigint', [{ at: new Date('2026-01-01T00:00:00Z'), n: 12n }]],
    ['an empty argument list', []],
    ['two arguments', ['w1', { isActive: true }]],
    ['a Map and a Set', [new Map([['a', 1]]), new Set(['x'])]],
    ['nesting within the limit', [nested(20)]],
  ])('passes %s', async (_name, args) => {
    expect(await verdictOf(args)).toEqual({ ok: true });
  });

  it('passes a form submitted through useActionState (prev state and FormData)', async () => {
    const form = new FormData();
    form.set('email', '$weird {"text": [');
    form.set('password', 'x');
    expect(await verdictOf([{ error: null }, form])).toEqual({ ok: true });
  });
});

describe('bodies the decoder would fail on', () => {
  const refused = { ok: false, status: 400, message: BODY_MALFORMED };
  it.each([
    ['broken JSON', '[{"walletId": '],
    ['not an array', '{"walletId":"w1"}'],
    ['a bare string', '"hello"'],
    ['empty', ''],
    ['5000-deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    [
      'one level too deep',
      `${'['.repeat(ACTION_BODY_MAX_DEPTH + 1)}${']'.repeat(ACTION_BODY_MAX_DEPTH + 1)}`,
    ],
    ['a promise reference', '["$@1"]'],
    ['a row reference in a text body', '["$1"]'],
    ['a server reference', '[{"a":"$h1"}]'],
    ['a FormData reference', '["$K1"]'],
    ['a blob reference', '["$B1"]'],
    ['a stream marker', '["$R1"]'],
    ['an unknown marker', '["$zzz"]'],
    ['a $ key', '[{"$ACTION_ID_1":"x"}]'],
  ])('refuses %s', (_name, body) => {
    expect(checkActionTextBody(body)).toEqual(refused);
  });

  it('refuses a body over the limit with 413', () => {
    const body = JSON.stringify(['x'.repeat(ACTION_BODY_LIMIT_BYTES)]);
    expect(checkActionTextBody(body)).toEqual({ ok: false, status: 413, message: BODY_TOO_LARGE });
  });

  it('refuses multipart rows that are broken or too deep, and keeps references between rows', () => {
    expect(checkActionFormRows([['0', '["$K1"]']])).toEqual({ ok: true });
    expect(
      checkActionFormRows([
        ['0', '["$K1"'],
        ['1_email', 'a'],
      ]),
    ).toEqual(refused);
    expect(checkActionFormRows([['0', `${'['.repeat(5000)}${']'.repeat(5000)}`]])).toEqual(refused);
    expect(checkActionFormRows([['0', '["$nonsense"]']])).toEqual(refused);
  });
});
