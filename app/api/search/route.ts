// The command palette's search across every connected wallet.
import { z } from 'zod';
import { capabilitiesOf } from '@/lib/server/capabilities';
import { withPermission } from '@/lib/server/route';
import { type SearchableWallet, searchConsole } from '@/lib/server/search';
import { childAddressIdsFor } from '@/lib/server/wallet-addresses';
import { custodyFor, listWalletConnections } from '@/lib/server/wallets';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  q: z.string().trim().min(3, 'type at least 3 characters').max(200),
});

export const GET = withPermission(
  'read',
  async ({ actor, query }) => {
    const connections = await listWalletConnections();
    const wallets = (
      await Promise.all(
        connections.map(async (c): Promise<SearchableWallet | null> => {
          const client = await custodyFor(c.id);
          if (!client) return null;
          const capabilities = await capabilitiesOf(c.id);
          return {
            id: c.id,
            name: c.name,
            client,
            capabilities,
            // Read only when the wallet-wide list is missing and the query is an id or a hash.
            addressIds: () => childAddressIdsFor(client, c.id, capabilities),
          };
        }),
      )
    ).filter((w): w is SearchableWallet => w !== null);
    const result = await searchConsole(wallets, query.q, actor.requestId);
    return Response.json(result, { headers: { 'cache-control': 'no-store' } });
  },
  querySchema,
);
