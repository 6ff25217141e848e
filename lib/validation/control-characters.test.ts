import { describe, expect, it } from 'vitest';
import {
  BIDI_CONTROLS_MESSAGE,
  CONTROL_CHARACTERS_MESSAGE,
  jsonTextProblem,
  MAX_JSON_DEPTH,
  MAX_METADATA_CHARS,
  MAX_METADATA_DEPTH,
  parseMetadata,
  textProblem,
  withoutControlCharacters,
} from './control-characters';
import { metadataText, plainText } from './text';

/** An object nested `levels` deep whose innermost value is a string. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('the free-text rule', () => {
  it.each([
    ['NUL', 'a\u0000b', CONTROL_CHARACTERS_MESSAGE],
    ['escape', 'a\u001b[31mb', CONTROL_CHARACTERS_MESSAGE],
    ['C1 control', 'a\u0085b', CONTROL_CHARACTERS_MESSAGE],
    ['right-to-left override', 'evil\u202Egnp.exe', BIDI_CONTROLS_MESSAGE],
    ['left-to-right embedding', '\u202Aname', BIDI_CONTROLS_MESSAGE],
    ['first strong isolate', 'name\u2068', BIDI_CONTROLS_MESSAGE],
    ['pop directional isolate', 'name\u2069', BIDI_CONTROLS_MESSAGE],
  ])('refuses a %s', (_, text, message) => {
    expect(textProblem(text)).toBe(message);
    expect(textProblem(text, true)).toBe(message);
  });

  it('lets line breaks and tabs through only where a field is multi-line, and plain text everywhere', () => {
    expect(textProblem('one\ntwo\tthree', true)).toBeNull();
    expect(textProblem('one\ntwo')).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(textProblem('Zoë – شركة ‎ok')).toBeNull();
  });

  it('cleans text-direction overrides too when text is kept for the log', () => {
    expect(withoutControlCharacters('a\u0000b\u202Ec\nd')).toBe('a\ufffdb\ufffdc\nd');
  });

  it('names the text-direction override at a zod field, before any other rule', () => {
    const parsed = plainText().trim().min(1).max(5).safeParse('Acme\u202Egnp');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([BIDI_CONTROLS_MESSAGE]);
    expect(plainText().safeParse('Acme').success).toBe(true);
  });

  it('reads JSON decoded: keys and nested strings included', () => {
    expect(jsonTextProblem(JSON.parse('{"a":["ok",{"b":"x\\u0000y"}]}'))).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(jsonTextProblem(JSON.parse('{"\\u202e":1}'))).toBe(BIDI_CONTROLS_MESSAGE);
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/Nested more than 32 levels/);
  });
});

describe('metadata', () => {
  it.each([
    ['an escaped NUL in a value', '{"invoice":"A\\u0000"}', /remove control characters/],
    ['an escaped NUL in a key', '{"in\\u0000voice":"A"}', /remove control characters/],
    ['an escaped NUL deep inside', '{"a":{"b":[1,{"c":"\\u0000"}]}}', /remove control characters/],
    ['an escaped escape character', '{"a":"\\u001b[31m"}', /remove control characters/],
    ['an escaped right-to-left override', '{"name":"\\u202Eevil"}', /remove text-direction/],
    ['100 levels of nesting', JSON.stringify(nested(100)), /nested more than 16 levels/],
  ])('refuses %s with a sentence', (_, text, message) => {
    const parsed = parseMetadata(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(message);
    expect(!parsed.ok && parsed.message).toMatch(/^Metadata: .+\.$/);
  });

  it('takes metadata up to the shared depth and size, and no further', () => {
    expect(parseMetadata(JSON.stringify(nested(MAX_METADATA_DEPTH)))).toMatchObject({ ok: true });
    expect(parseMetadata(JSON.stringify(nested(MAX_METADATA_DEPTH + 1)))).toMatchObject({ ok: false });
    const fits = JSON.stringify({ a: 'x'.repeat(MAX_METADATA_CHARS - 8) });
    expect(fits).toHaveLength(MAX_METADATA_CHARS);
    expect(parseMetadata(fits)).toMatchObject({ ok: true });
    expect(parseMetadata(JSON.stringify({ a: 'x'.repeat(MAX_METADATA_CHARS - 7) }))).toEqual({
      ok: false,
      message: 'Keep metadata under 10,000 characters.',
    });
  });

  it('keeps line breaks inside the text but not inside decoded values', () => {
    expect(parseMetadata('{\n  "invoice": "A-12"\n}')).toEqual({ ok: true, value: { invoice: 'A-12' } });
    expect(parseMetadata('{"a":"line\\nbreak"}')).toMatchObject({ ok: false });
  });

  it('puts the sentence at the zod field', () => {
    const parsed = metadataText().safeParse('{"a":"\\u0000"}');
    expect(parsed.error?.issues).toMatchObject([
      { message: 'Metadata: remove control characters.', path: [] },
    ]);
  });
});
