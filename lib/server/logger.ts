import 'server-only';
import pino from 'pino';

// Keys whose values are secrets wherever they appear in a logged object (first three levels).
const SECRET_KEYS = [
  'apiKey',
  'key',
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'mnemonic',
  'seedPhrase',
  'privateKey',
  'code',
  'secret',
  'authSecret',
  'encryptionKey',
  'totpSecret',
  'token',
  'authorization',
  'cookie',
  'x-api-key',
];

const paths = SECRET_KEYS.flatMap((k) => {
  const p = /^[a-z]\w*$/i.test(k) ? k : `["${k}"]`;
  const dot = p.startsWith('[') ? p : `.${p}`;
  return [p, `*${dot}`, `*.*${dot}`];
});

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'custody-console' },
  redact: { paths, censor: '[redacted]' },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export const REDACTED_LOG_KEYS = SECRET_KEYS;
