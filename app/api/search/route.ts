// The command palette's search across every connected wallet.
import { z } from 'zod';
import { withPermission } from '@/lib/server/route';
import { type SearchableWallet, searchConsole } from '@/lib/server/search';
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
          return client ? { id: c.id, name: c.name, client } : null;
        }),
      )
    ).filter((w): w is SearchableWallet => w !== null);
    const result = await searchConsole(wallets, query.q, actor.requestId);
    return Response.json(result, { headers: { 'cache-control': 'no-store' } });
  },
  querySchema,
);
