import 'server-only';
// Fault controls of the sandbox (POST /control/faults): per wallet, in memory, for tests and demos of a
// custody service that is slow, loses answers, or offers the spec's endpoints alone.
import { z } from 'zod';

export interface WalletFaults {
  /** The next money-moving or signing call waits this long, then executes, then answers. One-shot. */
  delayNextMs: number;
  /** The next money-moving or signing call executes, then its answer is lost. One-shot. */
  dropNextAnswer: boolean;
  /** The extension endpoints answer as unknown paths until this is switched off. */
  specOnly: boolean;
}

/** Longest delay a test may ask for: 15 minutes, past any client timeout. */
const MAX_FAULT_DELAY_MS = 900_000;

export const faultsBody = z
  .object({
    delayNextMs: z.number().int().min(0).max(MAX_FAULT_DELAY_MS).optional(),
    dropNextAnswer: z.boolean().optional(),
    specOnly: z.boolean().optional(),
  })
  // A misspelt control would otherwise be accepted and silently do nothing.
  .strict();

export const faultsState = z.object({
  delayNextMs: z.number().int(),
  dropNextAnswer: z.boolean(),
  specOnly: z.boolean(),
});

/** What the next money-moving or signing call of a wallet must suffer, taken once. */
export interface ConsumedFaults {
  delayMs: number;
  drop: boolean;
}

export class FaultStore {
  private readonly byWallet = new Map<string, WalletFaults>();

  constructor(private readonly specOnlyByDefault: boolean) {}

  get(walletId: string): WalletFaults {
    const current = this.byWallet.get(walletId);
    return current
      ? { ...current }
      : { delayNextMs: 0, dropNextAnswer: false, specOnly: this.specOnlyByDefault };
  }

  set(walletId: string, patch: Partial<WalletFaults>): WalletFaults {
    const next = { ...this.get(walletId) };
    if (patch.delayNextMs !== undefined) next.delayNextMs = patch.delayNextMs;
    if (patch.dropNextAnswer !== undefined) next.dropNextAnswer = patch.dropNextAnswer;
    if (patch.specOnly !== undefined) next.specOnly = patch.specOnly;
    this.byWallet.set(walletId, next);
    return { ...next };
  }

  /** Takes the one-shot faults for a money-moving or signing call; spec-only mode stays. */
  consume(walletId: string): ConsumedFaults {
    const current = this.get(walletId);
    if (current.delayNextMs === 0 && !current.dropNextAnswer) return { delayMs: 0, drop: false };
    this.byWallet.set(walletId, { ...current, delayNextMs: 0, dropNextAnswer: false });
    return { delayMs: current.delayNextMs, drop: current.dropNextAnswer };
  }
}
