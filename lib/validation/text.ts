// zod schemas for free text as the console accepts it (see `control-characters.ts`).
import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters, jsonTextProblem } from './control-characters';

/**
 * A string without control characters; `multiline` lets tab and line breaks through (notes, JSON). Chain
 * `.trim()`, `.min()`, `.max()` on it as on `z.string()`.
 */
export function plainText(options: { multiline?: boolean; message?: string } = {}) {
  return z.string().refine((text) => !hasControlCharacters(text, options.multiline), {
    message: options.message ?? CONTROL_CHARACTERS_MESSAGE,
    // The characters are checked before any other rule, so a NUL is named for what it is.
    abort: true,
  });
}

/** Any JSON value whose strings are plain text and whose nesting is bounded. */
export function plainJson() {
  return z.unknown().superRefine((value, ctx) => {
    const problem = jsonTextProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
