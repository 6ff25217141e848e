import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/**
 * Puts each of the action's field errors under its field, the first one focused when `focus` is set. `fields`:
 * the fields that take them (others are left to the banner); `fieldFor`: the form field of an action's key,
 * when they differ. Answers whether any field took an error.
 */
export function showFieldErrors<V extends FieldValues>(
  form: { setError: UseFormSetError<V> },
  fieldErrors: Record<string, string> | undefined,
  options: {
    fields?: readonly Path<V>[];
    fieldFor?: (key: string) => string;
    type?: string;
    focus?: boolean;
  } = {},
): boolean {
  let shown = false;
  for (const [key, message] of Object.entries(fieldErrors ?? {})) {
    const name = (options.fieldFor?.(key) ?? key) as Path<V>;
    if (options.fields && !options.fields.includes(name)) continue;
    form.setError(name, { type: options.type, message }, { shouldFocus: options.focus === true && !shown });
    shown = true;
  }
  return shown;
}
