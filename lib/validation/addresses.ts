// Recipient addresses: valid for the chain, and for EVM chains checksummed (EIP-55) for display and sending.
import { checksumAddress, getAddress, isAddress, zeroAddress } from 'viem';

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

const HEX40 = /^[0-9a-fA-F]{40}$/;

/**
 * An EVM address as typed or pasted. All-lowercase (or all-uppercase) hex is accepted and returned
 * checksummed; mixed case must match its EIP-55 checksum, because a wrong checksum usually means a typo.
 */
export function checkEvmAddress(input: string): AddressCheck {
  const value = input.trim();
  if (value === '') return { ok: false, message: 'Enter a recipient address.' };
  if (/\s/.test(value)) return { ok: false, message: 'Remove the spaces from the address.' };
  if (!value.startsWith('0x')) {
    if (value.startsWith('0X')) return { ok: false, message: 'Start the address with a lowercase 0x.' };
    if (value.endsWith('.eth')) return { ok: false, message: 'Enter the address itself, not an ENS name.' };
    return { ok: false, message: 'An EVM address starts with 0x.' };
  }
  const body = value.slice(2);
  if (!/^[0-9a-zA-Z]*$/.test(body))
    return { ok: false, message: 'An address contains only the characters 0-9 and a-f after 0x.' };
  if (body.length !== 40) {
    return {
      ok: false,
      message: `An EVM address has 40 characters after 0x; this one has ${body.length}.`,
    };
  }
  if (!HEX40.test(body))
    return { ok: false, message: 'An address contains only the characters 0-9 and a-f after 0x.' };
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && !isAddress(value, { strict: true })) {
    return {
      ok: false,
      message:
        'The address checksum (its upper- and lower-case letters) does not match: check it for a typo.',
    };
  }
  const address = mixed ? getAddress(value) : checksumAddress(`0x${body.toLowerCase()}`);
  if (address === zeroAddress)
    return { ok: false, message: 'The zero address burns funds; it cannot be a recipient.' };
  return { ok: true, address };
}

/** The address check for a wallet's chain; non-EVM chains get a presence check only. */
export function checkRecipientAddress(
  input: string,
  chain: { isEvmCompatible?: boolean | null },
): AddressCheck {
  if (chain.isEvmCompatible === false) {
    const value = input.trim();
    if (value === '') return { ok: false, message: 'Enter a recipient address.' };
    if (/\s/.test(value)) return { ok: false, message: 'Remove the spaces from the address.' };
    return { ok: true, address: value };
  }
  return checkEvmAddress(input);
}

/** Case-insensitive comparison key for EVM addresses. */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}
