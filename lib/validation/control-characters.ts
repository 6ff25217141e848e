// Free text as the console accepts it: no control characters (without zod: the browser's URL-state parsers use
// this module; `text.ts` builds the schemas on it). A NUL byte is refused by the database and
// invisible characters let one name pass for another, so every free-text field refuses them with a sentence.
// The rule reads decoded text: JSON is parsed first (`jsonTextProblem`), so a `\u0000` escape is the NUL it means.

/** C0 controls (U+0000 to U+001F), DEL and the C1 controls (U+007F to U+009F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the rule refuses.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, with tab, line feed and carriage return allowed: a multi-line field keeps its lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the rule refuses.
const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/**
 * Bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069): they reorder what is
 * shown, so "evil\u202Egnp.exe" reads as another name and an address book entry can pass for a trusted one.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export const CONTROL_CHARACTERS_MESSAGE = 'Remove control characters';
export const BIDI_CONTROLS_MESSAGE = 'Remove text-direction characters (U+202A to U+202E, U+2066 to U+2069)';

/** Why a text is refused (a control character or a text-direction override), or null. */
export function textProblem(text: string, multiline = false): string | null {
  if ((multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(text))
    return CONTROL_CHARACTERS_MESSAGE;
  if (BIDI_CONTROLS.test(text)) return BIDI_CONTROLS_MESSAGE;
  return null;
}

/** True when the text holds a control character (or a text-direction override) a field of that kind refuses. */
export function hasControlCharacters(text: string, multiline = false): boolean {
  return textProblem(text, multiline) !== null;
}

/** Replaces control characters (multi-line ones kept) and text-direction overrides by U+FFFD. */
export function withoutControlCharacters(text: string): string {
  return text
    .replace(new RegExp(CONTROL_CHARACTERS_MULTILINE.source, 'g'), '\ufffd')
    .replace(new RegExp(BIDI_CONTROLS.source, 'g'), '\ufffd');
}

/**
 * How deep a JSON value may nest, counted from the value itself: a request body at a route, an argument of a
 * form (EIP-712 documents and ABI parameters nest a few levels).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Why a JSON value is refused, or null: nested deeper than `maxDepth`, or a string (key or value) with control
 * characters or text-direction overrides.
 */
export function jsonTextProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const problemAt = (node: unknown, depth: number): string | null => {
    if (depth > maxDepth) return `Nested more than ${maxDepth} levels deep`;
    if (typeof node === 'string') return textProblem(node);
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = problemAt(item, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    if (node && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const problem = textProblem(key) ?? problemAt(item, depth + 1);
        if (problem) return problem;
      }
    }
    return null;
  };
  return problemAt(value, 0);
}

/**
 * How deep metadata may nest, from the form or the console API alike. Below `MAX_JSON_DEPTH` so that the API's
 * check of a whole body (metadata sits three levels down in it) never refuses metadata before this rule does.
 */
export const MAX_METADATA_DEPTH = 16;
/** The most characters metadata may hold, written as compact JSON: the same for the form and the console API. */
export const MAX_METADATA_CHARS = 10_000;
const METADATA_EXAMPLE = '{"invoice": "A-12"}';

/**
 * Metadata typed (or sent) as JSON text: empty, or a JSON object whose every key and string, once decoded, is
 * plain text, nested no deeper than `MAX_METADATA_DEPTH` and at most `MAX_METADATA_CHARS` long. The one parser of
 * withdrawal, swap, deposit-address and whitelist metadata: a `"\u0000"` escape is refused here as the NUL it
 * decodes to, before the database or the custody service sees it.
 */
export function parseMetadata(
  text: string | undefined,
): { ok: true; value?: Record<string, unknown> } | { ok: false; message: string } {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { ok: true };
  // Pretty-printed text may be longer than its compact form; beyond twice the limit it is not read at all.
  const tooLong = `Keep metadata under ${MAX_METADATA_CHARS.toLocaleString('en-US')} characters.`;
  if (trimmed.length > 2 * MAX_METADATA_CHARS) return { ok: false, message: tooLong };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { ok: false, message: `Metadata must be valid JSON, e.g. ${METADATA_EXAMPLE}.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: `Metadata must be a JSON object, e.g. ${METADATA_EXAMPLE}.` };
  const problem = jsonTextProblem(value, MAX_METADATA_DEPTH);
  if (problem)
    return { ok: false, message: `Metadata: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}.` };
  if (JSON.stringify(value).length > MAX_METADATA_CHARS) return { ok: false, message: tooLong };
  return { ok: true, value: value as Record<string, unknown> };
}
