// What a server action request's body may be, checked before the framework decodes it: a body the decoder
// would choke on (broken JSON, thousands of nesting levels, reference strings it cannot resolve) or one over
// the limit gets a sentence and a 400 or 413 instead of a server error.

/** The server actions' body limit, in bytes: `experimental.serverActions.bodySizeLimit` says the same. */
export const ACTION_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** The same limit as next.config.ts writes it. */
export const ACTION_BODY_LIMIT = '2mb';
/** Deepest nesting an action's arguments reach (typed data and ABI tuples stay far below it). */
export const ACTION_BODY_MAX_DEPTH = 64;

export const BODY_TOO_LARGE = `The request is larger than ${ACTION_BODY_LIMIT_BYTES / (1024 * 1024)} MB. Send less at once.`;
export const BODY_MALFORMED = 'The request could not be read. Reload the page and try again.';

/**
 * Strings the reply encoder writes for values JSON has no word for; every other string starting with `$` is
 * a reference to another part of a multipart body, or escaped (`$$`) by the encoder when it is text.
 */
const PLAIN_MARKERS = /^\$(?:\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|T$|D\d{4}-|n-?\d+$)/;

type Verdict = { ok: true } | { ok: false; status: 400 | 413; message: string };

const malformed: Verdict = { ok: false, status: 400, message: BODY_MALFORMED };

/** Depth and `$` strings of one decoded row; `references` allows row references (multipart bodies). */
function rowProblem(value: unknown, references: boolean): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (depth > ACTION_BODY_MAX_DEPTH) return true;
    if (typeof v === 'string') {
      if (v.startsWith('$') && !PLAIN_MARKERS.test(v) && !(references && /^\$[A-Za-z@]?[0-9a-f]+$/.test(v)))
        return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push({ value: item, depth: depth + 1 });
    } else if (v && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (key.startsWith('$') && !key.startsWith('$$')) return true;
        stack.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return false;
}

/** JSON.parse without recursion limits of its own: depth is checked on the text before parsing. */
function parseBounded(text: string): { ok: true; value: unknown } | { ok: false } {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > ACTION_BODY_MAX_DEPTH) return { ok: false };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** A text body (the encoder's single row): a JSON array of arguments. */
export function checkActionTextBody(text: string): Verdict {
  if (new TextEncoder().encode(text).byteLength > ACTION_BODY_LIMIT_BYTES)
    return { ok: false, status: 413, message: BODY_TOO_LARGE };
  const parsed = parseBounded(text);
  if (!parsed.ok || !Array.isArray(parsed.value) || rowProblem(parsed.value, false)) return malformed;
  return { ok: true };
}

/**
 * A multipart body's text fields. Fields named by a row id are the encoder's JSON rows: each must parse
 * within the depth limit (references to other rows allowed). Fields named `<row>_<name>` are a FormData
 * argument's own entries (a form's text as typed) and are left to the action's schema.
 */
export function checkActionFormRows(rows: Array<[name: string, value: string]>): Verdict {
  for (const [name, text] of rows) {
    if (!/^[0-9a-f]+$/.test(name)) continue;
    const parsed = parseBounded(text);
    if (!parsed.ok || rowProblem(parsed.value, true)) return malformed;
  }
  return { ok: true };
}
