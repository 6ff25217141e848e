import type { z } from 'zod';

/**
 * A zod error as the form shows it: one message per field, keyed by the field's path (`recipients.0.amount`),
 * the first issue of a field winning. `under` drops a leading segment the form does not have (an action's input
 * `{ walletId, form: {...} }` maps `form.name` to `name`). Issues with no path are keyed `form`.
 */
export function fieldErrorsOf(error: z.ZodError, under?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (under && path[0] === under) path.shift();
    out[path.join('.') || 'form'] ??= issue.message;
  }
  return out;
}
