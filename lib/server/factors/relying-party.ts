import 'server-only';
// The WebAuthn relying party: the console's own origin (CONSOLE_ORIGIN). A browser at the same console under
// its other loopback name (localhost / 127.0.0.1 / [::1], same scheme and port) is the same console on one
// machine; any other origin a request names is ignored, so a passkey is only ever bound to this console.

export interface RelyingParty {
  /** The hostname the passkey is scoped to. */
  rpID: string;
  /** The exact origin the browser must report. */
  origin: string;
  name: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const RP_NAME = 'Custody Console';

export function relyingParty(consoleOrigin: string, requestOrigin?: string | null): RelyingParty {
  const own = new URL(consoleOrigin);
  const fallback = { rpID: own.hostname, origin: own.origin, name: RP_NAME };
  if (!requestOrigin) return fallback;
  let asked: URL;
  try {
    asked = new URL(requestOrigin);
  } catch {
    return fallback;
  }
  if (asked.origin === own.origin) return fallback;
  const sameMachine =
    LOOPBACK.has(own.hostname) &&
    LOOPBACK.has(asked.hostname) &&
    asked.protocol === own.protocol &&
    asked.port === own.port;
  return sameMachine ? { rpID: asked.hostname, origin: asked.origin, name: RP_NAME } : fallback;
}
