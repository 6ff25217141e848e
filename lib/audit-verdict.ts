/** The outcome of walking the audit chain (shared by the server verifier and the page that shows it). */
export type ChainVerdict =
  | { ok: true; entries: number }
  | { ok: false; entries: number; brokenAt: number; reason: string };
