// Address poisoning: an attacker sends dust from an address whose first and last characters match a real
// counterparty's, hoping it is copied from the history. A recipient like that is flagged beside the trusted one.

/** An address the wallet already trusts or has paid, with what it is to the person reading the warning. */
export interface KnownAddress {
  address: string;
  /** e.g. `whitelisted “Payroll”`, `beneficiary “Acme”`, `paid before`. */
  label: string;
}

/** Characters compared at each end, after a `0x` prefix: people check about this many, attackers match them. */
const LOOK_ALIKE_EDGE = 3;

function body(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('0x') ? a.slice(2) : a;
}

/**
 * The known address that `address` imitates: same first and last characters, different in between. Null when the
 * recipient is itself known (a known address is not poisoning) or nothing looks like it.
 */
export function lookAlikeOf(address: string, known: readonly KnownAddress[]): KnownAddress | null {
  const target = body(address);
  if (target.length <= 2 * LOOK_ALIKE_EDGE) return null;
  if (known.some((k) => body(k.address) === target)) return null;
  const head = target.slice(0, LOOK_ALIKE_EDGE);
  const tail = target.slice(-LOOK_ALIKE_EDGE);
  return (
    known.find((k) => {
      const other = body(k.address);
      return other.length === target.length && other.startsWith(head) && other.endsWith(tail);
    }) ?? null
  );
}

/** The review's warning for a look-alike recipient, naming the trusted address in full. */
export function lookAlikeWarning(trusted: KnownAddress): string {
  return `Looks like ${trusted.address} (${trusted.label}): same first and last characters, different in between. Compare every character: this is how address poisoning works.`;
}
