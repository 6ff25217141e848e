// zod schemas for free text as the console accepts it (see `control-characters.ts`).
import { z } from 'zod';
import {
  CONTROL_CHARACTERS_MESSAGE,
  jsonTextProblem,
  parseMetadata,
  textProblem,
} from './control-characters';

/**
 * A string without control characters or text-direction overrides; `multiline` lets tab and line breaks
 * through (notes, JSON). Chain `.trim()`, `.min()`, `.max()` on it as on `z.string()`.
 */
export function plainText(options: { multiline?: boolean; message?: string } = {}) {
  return z.string().refine((text) => textProblem(text, options.multiline) === null, {
    error: (issue) =>
      options.message ?? textProblem(String(issue.input), options.multiline) ?? CONTROL_CHARACTERS_MESSAGE,
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

/**
 * Optional metadata as JSON text (`parseMetadata`): the form's field and the console API's body (sent on as
 * text) are held to the same decoded-text, depth and size rules, with the sentence at the field.
 */
export function metadataText() {
  return plainText({ multiline: true }).superRefine((value, ctx) => {
    const parsed = parseMetadata(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  });
}
