// The "resend every failed delivery since" form's time, checked without zod so the page can tell at once
// whether to ask the server for a count (the form's schema, `resendSinceFormSchema`, runs the same check).

/** A `datetime-local` value's problem, or null when it is a moment in the past. */
export function sinceProblem(value: string): string | null {
  const at = new Date(value).getTime();
  if (value === '' || Number.isNaN(at)) return 'Choose a date and time';
  if (at > Date.now()) return 'Choose a time in the past';
  return null;
}
