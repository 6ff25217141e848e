// A browser's user agent in words for the sessions list ("Chrome on macOS"). Shown to people, never used to
// decide anything.

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/[\d.]+/, 'Edge'],
  [/\bOPR\/[\d.]+|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\/[\d.]+/, 'Samsung Internet'],
  [/\bFirefox\/[\d.]+|\bFxiOS\/[\d.]+/, 'Firefox'],
  [/\bHeadlessChrome\/[\d.]+/, 'Headless Chrome'],
  [/\bChrom(?:e|ium)\/[\d.]+|\bCriOS\/[\d.]+/, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/[\d.]+/, 'Safari'],
  [/\bcurl\/[\d.]+/, 'curl'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Firefox on Windows", "Safari on iPhone", "Unknown device" when nothing is known. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return 'Unknown browser';
}
