// The demo address book the e2e server seeded (lib/server/demo-address-book.ts): entries past their cooling-off,
// the only addresses money may go to under the destination policy. Each entry's address follows from
// SANDBOX_SEED, the wallet and the entry's name (a unit test checks both derivations agree), so a journey finds
// its entry by name. Journeys that check what a first payment looks like use names no other journey pays.
import { createHmac } from 'node:crypto';
import type { SandboxWallet } from './sandbox';

const DEFAULT_SEED = 'custody-console-sandbox';

/** The address of the demo entry `name` of the wallet with id `walletId`, in lowercase as a person might paste it. */
export function demoBookAddressFor(
  walletId: string,
  name: string,
  seed = process.env.SANDBOX_SEED || DEFAULT_SEED,
): string {
  const mac = createHmac('sha256', seed).update(`demo-address-book:${walletId}:${name}`).digest();
  return `0x${mac.subarray(0, 20).toString('hex')}`;
}

/** A demo address book entry of the wallet, by name ("Acme Supplies", "Employee 07"). */
export function bookEntry(wallet: SandboxWallet, name: string): { name: string; address: string } {
  return { name, address: demoBookAddressFor(wallet.id, name) };
}

/** The demo payroll: "Employee 01" to "Employee 50". */
export function employee(wallet: SandboxWallet, n: number): { name: string; address: string } {
  return bookEntry(wallet, `Employee ${String(n).padStart(2, '0')}`);
}
