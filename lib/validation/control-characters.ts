// Free text as the console accepts it: no control characters (without zod: the browser's URL-state parsers use
// this module; `text.ts` builds the schemas on it). A NUL byte is refused by the database and
// invisible characters let one name pass for another, so every free-text field refuses them with a sentence.

/** C0 controls (U+0000 to U+001F), DEL and the C1 controls (U+007F to U+009F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the rule refuses.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, with tab, line feed and carriage return allowed: a multi-line field keeps its lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the rule refuses.
const CONTROL_CHARACTERS_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const CONTROL_CHARACTERS_MESSAGE = 'Remove control characters';

/** True when the text holds a control character a field of that kind refuses. */
export function hasControlCharacters(text: string, multiline = false): boolean {
  return (multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(text);
}

/** Replaces control characters (multi-line ones kept) by U+FFFD: text the database and the log can hold. */
export function withoutControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTERS_MULTILINE.source, 'g'), '\ufffd');
}

/** How deep a JSON value a form may send (EIP-712 documents and ABI parameters nest a few levels). */
const MAX_JSON_DEPTH = 32;

/** Why a JSON value is refused, or null: too deep, or a string (key or value) with control characters. */
export function jsonTextProblem(value: unknown, depth = 0): string | null {
  if (depth > MAX_JSON_DEPTH) return `Nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (typeof value === 'string') return hasControlCharacters(value) ? CONTROL_CHARACTERS_MESSAGE : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonTextProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = hasControlCharacters(key)
        ? CONTROL_CHARACTERS_MESSAGE
        : jsonTextProblem(item, depth + 1);
      if (problem) return problem;
    }
  }
  return null;
}
