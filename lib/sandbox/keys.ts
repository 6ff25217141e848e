// Key material of the sandbox: the business mnemonic and HD derivation, API keys, the TOTP secret.
import { createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { generateSync, verifySync } from 'otplib';
import { type Address, type Hex, toHex } from 'viem';
import { english, generateMnemonic, HDKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

export function newMnemonic(): string {
  return generateMnemonic(english, 128);
}

/** BIP-39 seed (PBKDF2-SHA512, 2048 rounds): the costly step, done once per process. */
export function mnemonicToRootKey(mnemonic: string): HDKey {
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  return HDKey.fromMasterSeed(seed);
}

export function walletPath(accountIndex: number): string {
  return `m/44'/60'/${accountIndex}'/0/0`;
}

export function childPath(accountIndex: number, addressIndex: number): string {
  return `m/44'/60'/${accountIndex}'/0/${addressIndex}`;
}

/**
 * Derives accounts from one root key, caching by path (deriving is cheap, but signing paths repeat). The root
 * may be given as a function: it is then computed on first use, so a start that signs nothing does not pay it.
 */
export class KeyRing {
  private readonly cache = new Map<string, PrivateKeyAccount>();
  private rootKey: HDKey | undefined;
  constructor(private readonly rootSource: HDKey | (() => HDKey)) {}

  private get root(): HDKey {
    this.rootKey ??= typeof this.rootSource === 'function' ? this.rootSource() : this.rootSource;
    return this.rootKey;
  }

  /** Computes the root now (after start-up), so the first signature does not wait for it. */
  prepare(): void {
    void this.root;
  }

  account(path: string): PrivateKeyAccount {
    let account = this.cache.get(path);
    if (!account) {
      const key = this.root.derive(path).privateKey;
      if (!key) throw new Error(`No private key at ${path}`);
      account = privateKeyToAccount(toHex(key));
      this.cache.set(path, account);
    }
    return account;
  }

  privateKey(path: string): Hex {
    const key = this.root.derive(path).privateKey;
    if (!key) throw new Error(`No private key at ${path}`);
    return toHex(key);
  }

  address(path: string): Address {
    return this.account(path).address;
  }
}

export function newApiKey(): string {
  return `sbx_${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function totpCode(secret: string, nowMs: number): string {
  return generateSync({ secret, epoch: Math.floor(nowMs / 1000) });
}

/** RFC 6238, 6 digits, 30 s steps; one step either side tolerates clock drift between people and servers. */
export function verifyTotp(secret: string, code: unknown, nowMs: number): boolean {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return false;
  try {
    return verifySync({ secret, token: code, epoch: Math.floor(nowMs / 1000), epochTolerance: 30 }).valid;
  } catch {
    return false;
  }
}
