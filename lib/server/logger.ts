import 'server-only';
import pino, { type DestinationStream } from 'pino';
import { SECRET_KEYS } from './redaction';

// Secret-named keys are censored wherever they appear in a logged object (first three levels).
const paths = SECRET_KEYS.flatMap((k) => {
  const p = /^[a-z]\w*$/i.test(k) ? k : `["${k}"]`;
  const dot = p.startsWith('[') ? p : `.${p}`;
  return [p, `*${dot}`, `*.*${dot}`];
});

/** The console's pino logger; a destination other than stdout is for tests. */
export function createLogger(destination?: DestinationStream) {
  const options = {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: 'custody-console' },
    redact: { paths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}

export const logger = createLogger();
