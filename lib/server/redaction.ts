import 'server-only';
// Redaction before anything leaves the server: custody resources (RSC props, JSON, action results), audit
// inputs and log lines all go by the one list of secret field names below.
// DESIGN.md, "Secrets": the wallet's `business` object carries seed phrases, `apiCredential.key` is the
// wallet's API key, an address read with showPrivateKey carries the private key. One function per shape.
import type { Address, ApiCredential, Transaction, Wallet, WebhookLog } from '@/lib/custody/schemas';
import type { RedactedApiCredential, RedactedWallet } from '@/lib/wallet-view';

export type { RedactedWallet };

/**
 * The one list of field names whose values are secrets, wherever they appear: log lines (pino paths, by exact
 * name), audit inputs and custody resources (by name, any case). Names not on it are still caught by
 * SECRET_NAME_PATTERN when they look like a secret.
 */
export const SECRET_KEYS = [
  'apiKey',
  'api_key',
  'x-api-key',
  'key',
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'passcode',
  'mnemonic',
  'seed',
  'seedPhrase',
  'phrase',
  'privateKey',
  'private_key',
  'privkey',
  'xprv',
  'xpriv',
  'code',
  'otp',
  'totp',
  'totpSecret',
  'secret',
  'authSecret',
  'encryptionKey',
  'token',
  'authorization',
  'cookie',
] as const;

const SECRET_NAMES = new Set(SECRET_KEYS.map((name) => name.toLowerCase()));
// Names the list does not spell out but that hold secrets all the same (`walletSeed`, `clientSecret`, ...).
const SECRET_NAME_PATTERN =
  /(seed|mnemonic|phrase|xprv|xpriv|private_?key|privkey|secret|password|passcode|api_?key|^key$|^code$|^otp$|^totp)/i;

/** True when a field of this name holds a secret. */
function isSecretKey(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase()) || SECRET_NAME_PATTERN.test(name);
}

// A BIP-39 phrase (12 to 24 lowercase words) stored under a name we do not know.
const MNEMONIC_VALUE = /^\s*(?:[a-z]{3,8}\s+){11,23}[a-z]{3,8}\s*$/;
const MAX_DEPTH = 12;

/**
 * Drops every field whose name looks like a secret (unless its value is a boolean flag such as
 * `showPrivateKey`) and every string value that looks like a seed phrase, at any depth.
 */
export function stripSecrets<T>(value: T): T {
  return strip(value, 0) as T;
}

function strip(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof value === 'string') return MNEMONIC_VALUE.test(value) ? '[redacted]' : value;
  if (Array.isArray(value)) return value.map((item) => strip(item, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (isSecretKey(key) && typeof inner !== 'boolean') continue;
      out[key] = strip(inner, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * An input as the audit log keeps it: secret-named values replaced (empty ones kept, so the log shows the
 * field was left blank), deep structures and long strings cut short.
 */
export function redactInput(input: Record<string, unknown>): Record<string, unknown> {
  return redactInputValue(input, 0) as Record<string, unknown>;
}

function redactInputValue(value: unknown, depth: number): unknown {
  if (depth > 6) return '[truncated]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactInputValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        isSecretKey(k) && typeof v !== 'boolean'
          ? v === undefined || v === null || v === ''
            ? v
            : '[redacted]'
          : redactInputValue(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'string' && value.length > 500) return `${value.slice(0, 500)}…`;
  return value;
}

/** Only the last four characters of a key: enough to tell keys apart, useless to call the API with. */
export function maskKey(key: string | null | undefined): string {
  if (!key) return '';
  const visible = key.replace(/^\*+/, '').slice(-4);
  return `••••${visible}`;
}

function redactCredential(credential: ApiCredential | null | undefined): RedactedApiCredential | null {
  if (!credential || typeof credential !== 'object') return null;
  return {
    id: credential.id,
    type: credential.type,
    status: credential.status,
    isActive: credential.isActive,
    key: maskKey(credential.key),
    webhookUrl: credential.webhookUrl ?? null,
    createdAt: credential.createdAt,
    updatedAt: credential.updatedAt,
    revokedAt: credential.revokedAt ?? null,
  };
}

function businessRef(business: unknown): { id: string; name: string } | null {
  if (!business || typeof business !== 'object') return null;
  const { id, name } = business as { id?: unknown; name?: unknown };
  if (typeof id !== 'string') return null;
  return { id, name: typeof name === 'string' ? name : '' };
}

/**
 * #4's wallet for the browser. Built field by field (an allow-list), so a field the upstream adds later
 * (e.g. `privateKey` when read with showPrivateKey) is not passed on; the nested objects kept are scrubbed.
 */
export function redactWallet(wallet: Wallet): RedactedWallet {
  return {
    id: wallet.id,
    address: wallet.address,
    name: wallet.name,
    description: wallet.description,
    network: wallet.network,
    status: wallet.status,
    isActive: wallet.isActive,
    derivationPath: wallet.derivationPath,
    blockchain: stripSecrets(wallet.blockchain),
    assets: stripSecrets(wallet.assets),
    analytics: stripSecrets(wallet.analytics),
    configurations: stripSecrets(wallet.configurations ?? null),
    business: businessRef(wallet.business),
    apiCredential: redactCredential(wallet.apiCredential),
    createdAt: wallet.createdAt,
    updatedAt: wallet.updatedAt,
  };
}

/** #5's address for the browser: no private key (showPrivateKey reads add one), nothing secret-named. */
export function redactAddress<A extends Address>(address: A): A {
  const { privateKey: _privateKey, ...rest } = address as A & { privateKey?: unknown };
  return stripSecrets(rest) as A;
}

/** The partial wallet embedded in a transaction or webhook payload. */
function redactWalletRef(ref: unknown): unknown {
  if (!ref || typeof ref !== 'object') return ref;
  const { business, apiCredential, ...rest } = ref as Record<string, unknown>;
  return {
    ...stripSecrets(rest),
    ...(business !== undefined ? { business: businessRef(business) } : {}),
    ...(apiCredential !== undefined
      ? { apiCredential: redactCredential(apiCredential as ApiCredential) }
      : {}),
  };
}

/** A transaction for the browser: embedded wallets reduced, embedded address redacted, secrets stripped. */
export function redactTransaction<T extends Transaction>(tx: T): T {
  const { wallet, toWallet, address, ...rest } = tx;
  return {
    ...stripSecrets(rest),
    wallet: redactWalletRef(wallet),
    toWallet: toWallet ? redactWalletRef(toWallet) : toWallet,
    address: address ? redactAddress(address) : address,
  } as T;
}

/** A webhook log entry (#22, #23) for the browser: its payload is a transaction. */
export function redactWebhookLog<W extends WebhookLog>(log: W): W {
  const { payload, ...rest } = log;
  return { ...stripSecrets(rest), payload: payload ? redactTransaction(payload) : payload } as W;
}
