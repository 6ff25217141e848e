import 'server-only';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** SHA-256 of the payload's canonical JSON (RFC 8785): key order and spacing cannot change the hash. */
export function hashPayload(payload: unknown): string {
  const text = canonicalize(payload);
  if (text === undefined) throw new TypeError('Payload cannot be canonicalized');
  return createHash('sha256').update(text).digest('hex');
}

/** The upstream reference of one item, derived from the request id so an unknown outcome can be matched. */
export function referenceFor(requestId: string, index: number): string {
  return `req-${requestId.replace(/-/g, '').slice(0, 12)}-${index}`;
}
