// A calendar day as date inputs and URLs write it: YYYY-MM-DD, read in UTC.

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True for a day the calendar has: `2026-02-28`, never `2026-13-45` or `2026-02-30`. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
