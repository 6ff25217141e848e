import 'server-only';
import pino, { type DestinationStream } from 'pino';
import { SECRET_KEYS } from './redaction';

// Secret-named keys are censored wherever they appear in a logged object (first three levels).
const paths = SECRET_KEYS.flatMap((k) => {
  const p = /^[a-z]\w*$/i.test(k) ? k : `["${k}"]`;
  const dot = p.startsWith('[') ? p : `.${p}`;
  return [p, `*${dot}`, `*.*${dot}`];
});

/**
 * Keys under which database drivers put a failed query's bound values (Drizzle, node-postgres, PGlite), and
 * PostgreSQL's `detail`, which quotes a conflicting row's values.
 */
const QUERY_VALUE_KEYS = new Set(['params', 'parameters', 'values', 'detail']);
// Drizzle writes the values into the message too: "Failed query: <sql>\nparams: <values>".
const PARAMS_LINE = /\n\s*params: [^\n]*(?:\n(?!\s+at )[^\n]*)*/g;

/**
 * A failed query's bound values are data (a password hash, a person's name): never logged. Removes them from
 * an error (its cause, its message and its stack included) after pino's own serialisation.
 */
function withoutQueryValues(value: unknown, depth = 0): unknown {
  if (depth > 8 || !value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
  for (const [key, item] of Object.entries(value)) {
    if (QUERY_VALUE_KEYS.has(key)) out[key] = '[redacted]';
    else if ((key === 'message' || key === 'stack') && typeof item === 'string')
      out[key] = item.replace(PARAMS_LINE, '\nparams: [redacted]');
    else out[key] = withoutQueryValues(item, depth + 1);
  }
  return out;
}

const serializeError = (error: unknown) =>
  withoutQueryValues(error instanceof Error ? pino.stdSerializers.err(error) : error);

/** The console's pino logger; a destination other than stdout is for tests. */
export function createLogger(destination?: DestinationStream) {
  const options = {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'custody-console' },
    redact: { paths, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError, cause: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

export const logger = createLogger();
