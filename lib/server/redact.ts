// Redaction of inputs before they are stored or logged: secrets never leave as values.
const SECRET_FIELD =
  /^(password|newPassword|currentPassword|apiKey|key|privateKey|mnemonic|seedPhrase|code|secret|token|totpSecret|authorization)$/i;

export function redactInput(input: Record<string, unknown>): Record<string, unknown> {
  return redactValue(input, 0) as Record<string, unknown>;
}

function redactValue(value: unknown, depth: number): unknown {
  if (depth > 6) return '[truncated]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_FIELD.test(k)
        ? v === undefined || v === null || v === ''
          ? v
          : '[redacted]'
        : redactValue(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'string' && value.length > 500) return `${value.slice(0, 500)}…`;
  return value;
}
