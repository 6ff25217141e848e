import 'server-only';
// Server actions run only for pages of this console. Next aborts an action whose Origin names another host (its
// CSRF check in the action handler) but answers it with a server error; the proxy applies the same rule first
// and answers 403 with a sentence. The rule is Next's own, so the proxy refuses exactly what Next would abort.

export const FOREIGN_ORIGIN =
  'This request came from another site, so it was not run. Open the console at its own address and try again.';

/** The host Next compares an action's Origin with: the first `x-forwarded-host`, else `Host`. */
function consoleHost(headers: Headers): string | null {
  const forwarded = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  return forwarded || headers.get('host') || null;
}

/**
 * True when a server action request names an origin other than the host it was sent to, or an origin that is not
 * an address (`null` from a sandboxed frame, or text). A request without Origin is let through, as Next does:
 * browsers send one with every POST, and a hand-made request carries no one else's cookies.
 */
export function isForeignActionOrigin(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (origin === null) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  return originHost === '' || originHost !== consoleHost(headers);
}
