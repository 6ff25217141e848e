import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Address, schemas, type Transaction, type Wallet, type WebhookLog } from '@/lib/custody/schemas';
import * as fx from '@/lib/custody/test-fixtures';
import { createLogger } from './logger';
import {
  maskKey,
  redactAddress,
  redactInput,
  redactTransaction,
  redactWallet,
  redactWebhookLog,
  SECRET_KEYS,
  stripSecrets,
} from './redaction';

const SEED = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const PRIVATE_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const API_KEY = 'sk_live_0123456789abcdefWXYZ';

function walletWith(overrides: Record<string, unknown> = {}): Wallet {
  return schemas.wallet.parse(fx.wallet(overrides));
}

function serialized(value: unknown) {
  return JSON.stringify(value);
}

describe('redactWallet', () => {
  it('drops a seed phrase stored in business under an unlisted name', () => {
    const wallet = walletWith();
    expect(serialized(wallet)).toContain('test test test');
    const out = redactWallet(wallet);
    expect(serialized(out)).not.toContain('test test test');
    expect(out.business).toEqual({ id: 'b0b0b0b0-1111-4222-8333-444455556666', name: 'Acme Payments' });
  });

  it('drops business.mnemonic, business.seedPhrase and nested business secrets', () => {
    const base = fx.wallet().business;
    const wallet = walletWith({
      business: {
        ...base,
        mnemonic: SEED,
        seedPhrase: SEED,
        wallets: [{ id: 'w1', encryptedSeed: 'abc', phrase: SEED }],
        user: { ...base.user, recoveryWords: SEED },
      },
    });
    const out = redactWallet(wallet);
    const text = serialized(out);
    expect(text).not.toContain('legal winner');
    expect(text).not.toContain('encryptedSeed');
    expect(text).not.toContain('ada@acme.example');
    expect(out.business).toEqual({ id: base.id, name: base.name });
  });

  it('masks apiCredential.key to its last four characters', () => {
    const wallet = walletWith({ apiCredential: { ...fx.wallet().apiCredential, key: API_KEY } });
    const out = redactWallet(wallet);
    expect(serialized(out)).not.toContain(API_KEY);
    expect(serialized(out)).not.toContain('0123456789abcdef');
    expect(out.apiCredential?.key).toBe('••••WXYZ');
    expect(out.apiCredential?.webhookUrl).toBe('https://console.example/api/webhooks/custody');
  });

  it('drops a private key added by a showPrivateKey read and unknown secret-named fields', () => {
    const wallet = walletWith({ privateKey: PRIVATE_KEY, mnemonic: SEED });
    const out = redactWallet(wallet);
    const text = serialized(out);
    expect(text).not.toContain(PRIVATE_KEY);
    expect(text).not.toContain('legal winner');
    expect(out).not.toHaveProperty('privateKey');
  });

  it('drops seed-like values in nested objects it keeps (configurations, assets)', () => {
    const base = fx.wallet();
    const wallet = walletWith({
      configurations: {
        ...base.configurations,
        addresses: { ...base.configurations.addresses, backupMnemonic: SEED },
      },
      assets: base.assets.map((a) => ({ ...a, note: SEED })),
    });
    const text = serialized(redactWallet(wallet));
    expect(text).not.toContain('legal winner');
    expect(text).not.toContain('backupMnemonic');
  });

  it('keeps what the pages need', () => {
    const out = redactWallet(walletWith());
    expect(out.analytics).toEqual({ currentBalance: 1520.5, numberOfAssets: 1, unsweptBalance: 20 });
    expect(out.assets[0]?.asset.symbol).toBe('USDC');
    expect(out.blockchain.slug).toBe('ethereum');
    expect(out.configurations?.autoSettlement.isActive).toBe(true);
  });
});

describe('redactAddress', () => {
  it('drops the private key a showPrivateKey read returns', () => {
    const address = schemas.address.parse(fx.address({ privateKey: PRIVATE_KEY })) as Address;
    expect(serialized(address)).toContain(PRIVATE_KEY);
    const out = redactAddress(address);
    expect(serialized(out)).not.toContain(PRIVATE_KEY);
    expect(out).not.toHaveProperty('privateKey');
  });

  it('drops private_key, secret and mnemonic-like fields, keeps the showPrivateKey flag', () => {
    const address = schemas.address.parse(
      fx.address({ private_key: PRIVATE_KEY, secret: 'x', metadata: { words: SEED } }),
    ) as Address;
    const out = redactAddress(address);
    const text = serialized(out);
    expect(text).not.toContain(PRIVATE_KEY);
    expect(text).not.toContain('legal winner');
    expect(out).not.toHaveProperty('secret');
    expect(out.configurations.showPrivateKey).toBe(false);
    expect(out.derivationPath).toBe("m/44'/60'/0'/0/42");
  });
});

describe('redactTransaction and redactWebhookLog', () => {
  it('reduces the embedded wallet business and redacts the embedded address', () => {
    const tx = schemas.transaction.parse(
      fx.transaction({
        wallet: { id: fx.WALLET_ID, business: { id: 'b1', name: 'Acme', seedPhrase: SEED } },
        address: fx.address({ privateKey: PRIVATE_KEY }),
      }),
    ) as Transaction;
    const out = redactTransaction(tx);
    const text = serialized(out);
    expect(text).not.toContain('legal winner');
    expect(text).not.toContain(PRIVATE_KEY);
    expect(out.wallet).toEqual({ id: fx.WALLET_ID, business: { id: 'b1', name: 'Acme' } });
    expect(out.id).toBe(fx.TX_ID);
  });

  it('redacts the payload of a webhook log entry', () => {
    const log = schemas.webhookLog.parse(
      fx.webhookLog({
        payload: fx.transaction({
          wallet: { id: fx.WALLET_ID, business: { id: 'b1', name: 'A', mnemonic: SEED } },
        }),
      }),
    ) as WebhookLog;
    const out = redactWebhookLog(log);
    expect(serialized(out)).not.toContain('legal winner');
    expect(out.payload.id).toBe(fx.TX_ID);
  });
});

describe('helpers', () => {
  it('maskKey shows at most four characters', () => {
    expect(maskKey(API_KEY)).toBe('••••WXYZ');
    expect(maskKey('************abcd')).toBe('••••abcd');
    expect(maskKey('')).toBe('');
  });
  it('stripSecrets keeps booleans under secret-looking names and ordinary values', () => {
    expect(stripSecrets({ showPrivateKey: true, privateKey: 'x', hash: `0x${'a'.repeat(64)}` })).toEqual({
      showPrivateKey: true,
      hash: `0x${'a'.repeat(64)}`,
    });
  });
});

describe('the one list of secret keys', () => {
  const VALUE = 'secret-value-0123456789';

  /** What one log line of `fields` writes, nested as a field of a logged object and one level deeper. */
  function logged(fields: Record<string, unknown>): string {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger(sink);
    log.level = 'info';
    log.info({ ...fields, request: fields, outer: { inner: fields } }, 'line');
    return lines.join('');
  }

  it.each(SECRET_KEYS)('%s is removed from log lines, audit inputs and custody resources', (name) => {
    const line = logged({ [name]: VALUE, ordinary: 'kept-value' });
    expect(line).toContain('kept-value');
    expect(line).not.toContain(VALUE);

    const audited = redactInput({ [name]: VALUE, nested: { [name]: VALUE }, ordinary: 'kept' });
    expect(audited).toEqual({ [name]: '[redacted]', nested: { [name]: '[redacted]' }, ordinary: 'kept' });

    const stripped = stripSecrets({ [name]: VALUE, nested: { [name]: VALUE }, ordinary: 'kept' });
    expect(stripped).toEqual({ nested: {}, ordinary: 'kept' });
  });

  it('matches names in any case for audit inputs and resources', () => {
    expect(redactInput({ APIKEY: VALUE })).toEqual({ APIKEY: '[redacted]' });
    expect(stripSecrets({ Authorization: VALUE, Token: VALUE })).toEqual({});
  });
});
