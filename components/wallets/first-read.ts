/**
 * What a list shows in place of its rows when it has none to show: the browser's own failed read, else the
 * server's failed first read (while the browser has not answered yet). Null while rows are there; a failed
 * refresh then keeps the earlier rows with a warning instead.
 */
export function firstReadFailure({
  hasData,
  queryError,
  initialError,
  isInitial,
}: {
  hasData: boolean;
  queryError: string | null;
  initialError: string | null;
  isInitial: boolean;
}): string | null {
  if (hasData) return null;
  if (queryError !== null) return queryError;
  return isInitial ? initialError : null;
}
