// Where the browser goes after sign-in: only somewhere on the console itself (no open redirect).

// A stand-in origin to resolve against: the console keeps only the path of a callback, since the origin the
// server sees may differ from the browser's (localhost and 127.0.0.1, a proxy in front).
const CONSOLE_ORIGIN = 'https://console.invalid';

/**
 * The path (with query and fragment) to follow after sign-in, or `/`. The value is parsed as a URL against the
 * console's origin and followed only when it resolves to that origin: `//evil`, `/\evil` (browsers read a
 * backslash as a slash), `https://evil`, `javascript:...` all give `/`. A backslash is refused in any form,
 * escaped (`%5C`) included, since a later decode would turn it into one; so are control characters.
 */
export function safeCallbackPath(value: unknown, origin: string = CONSOLE_ORIGIN): string {
  if (typeof value !== 'string') return '/';
  const raw = value.trim();
  if (!raw || raw.length > 2048) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\\\u0000-\u001f\u007f]|%5c|%0[0-9a-f]|%1[0-9a-f]/i.test(raw)) return '/';
  // A scheme is only accepted as a full http(s) URL (checked against the origin below): never `javascript:`,
  // `data:`, or a scheme-relative trick such as `https:evil`.
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^https?:\/\//i.test(raw)) return '/';
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    return '/';
  }
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return '/';
  }
  if (url.origin !== base.origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The result must itself read as a path on this origin when followed again.
  if (!path.startsWith('/') || path.startsWith('//')) return '/';
  return path;
}
