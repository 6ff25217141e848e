// Where a deposit to a child address stands with its sweep to the master wallet, in the words the
// address page shows; one rule for the transactions table and the followed deposit.
import type { Transaction } from '@/lib/custody/schemas';

export type SweepState =
  /** Not a deposit, or a deposit that failed: nothing to sweep. */
  | 'none'
  /** The address keeps its deposits (auto-sweep off). */
  | 'stays'
  /** Still confirming: the sweep follows settlement. */
  | 'after-settlement'
  /** Settled; the sweep has not been reported yet. */
  | 'sweeping'
  | 'swept'
  | 'failed';

export function sweepStateOf(
  tx: Pick<Transaction, 'type' | 'status' | 'assetSwept' | 'assetSweptResponse'>,
  addressSweeps: boolean,
): SweepState {
  if (tx.type !== 'DEPOSIT' || tx.status === 'FAILED') return 'none';
  if (tx.assetSwept === true) return 'swept';
  // A sweep that was tried and did not happen leaves its result text and assetSwept false.
  if (tx.assetSwept === false && tx.assetSweptResponse) return 'failed';
  if (!addressSweeps) return 'stays';
  return tx.status === 'SUCCESS' ? 'sweeping' : 'after-settlement';
}

export const SWEEP_LABEL: Record<SweepState, string> = {
  none: '—',
  stays: 'Stays on address',
  'after-settlement': 'After settlement',
  sweeping: 'Sweeping…',
  swept: 'Swept',
  failed: 'Sweep failed',
};
