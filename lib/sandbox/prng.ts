// Deterministic randomness for the seed: the same SANDBOX_SEED gives the same shape of data.
import { createHash } from 'node:crypto';

export class SeededRandom {
  private counter = 0;
  constructor(private readonly seed: string) {}

  private bytes(label: string): Buffer {
    this.counter += 1;
    return createHash('sha256').update(`${this.seed}\u0000${label}\u0000${this.counter}`).digest();
  }

  /** Uniform in [0, 1). */
  next(label = ''): number {
    return this.bytes(label).readUInt32BE(0) / 2 ** 32;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  hex(bytes: number): `0x${string}` {
    let out = '';
    while (out.length < bytes * 2) out += this.bytes('hex').toString('hex');
    return `0x${out.slice(0, bytes * 2)}`;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const b = this.bytes('uuid');
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.subarray(0, 16).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }

  reference(): string {
    return this.bytes('ref').toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
  }
}
