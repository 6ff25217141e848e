import 'server-only';
// The token units of a contract that is not one of the wallet's assets, read from the contract itself
// (decimals() and symbol(), #18), so its amounts can be typed and shown in token units.
import type { CustodyClient } from '@/lib/custody';
import { ERC20_PRESET } from '@/lib/validation/abi';
import { decimalsOf, symbolOf, type TokenUnits } from '@/lib/validation/abi-units';

const preset = (name: string) => ERC20_PRESET.filter((f) => f.name === name && f.inputs.length === 0);

/**
 * `{ symbol, decimals }` as the contract reports them, or null when decimals() does not answer a number
 * (not a token, or the read failed): amounts then stay in base units. A missing symbol reads as "tokens".
 */
export async function readTokenUnits(
  client: CustodyClient,
  walletId: string,
  address: string,
): Promise<TokenUnits | null> {
  const calls = [
    { address, method: 'decimals', abi: preset('decimals'), parameters: [] },
    { address, method: 'symbol', abi: preset('symbol'), parameters: [] },
  ];
  try {
    const answer = await client.contracts.read({ walletId }, { calls });
    if (answer.form === 'single') return null;
    const decimals = decimalsOf(answer.success.find((s) => s.index === 0)?.data);
    if (decimals === null) return null;
    const symbol = symbolOf(answer.success.find((s) => s.index === 1)?.data) ?? 'tokens';
    return { symbol, decimals };
  } catch {
    return null;
  }
}
