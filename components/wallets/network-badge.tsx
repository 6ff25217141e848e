import { Badge } from '@/components/ui/badge';

/** Mainnet moves real money: it is red and says so; testnets are quiet. */
export function NetworkBadge({ network }: { network: string }) {
  if (network === 'mainnet') return <Badge variant="destructive">Mainnet</Badge>;
  return <Badge variant="outline">{network === 'testnet' ? 'Testnet' : network}</Badge>;
}
