import type { Metadata } from 'next';
import { NewTokenDialog } from '@/components/admin/tokens/new-token-dialog';
import { TokensTable } from '@/components/admin/tokens/tokens-table';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { listTokens } from '@/lib/server/service-tokens/tokens';
import { listWalletConnections } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'API tokens' };

export default async function TokensPage() {
  await requirePage('serviceTokenCreate.request');
  const db = await getDb();
  const [tokens, wallets] = await Promise.all([listTokens(db), listWalletConnections(db)]);
  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Back-office systems call the console’s API with these (described by{' '}
            <a className="underline" href="/api/v1/openapi.json">
              the OpenAPI document
            </a>
            ). A token’s withdrawals and swaps wait for people to approve them, like anyone’s. Making a token
            and giving it a new secret wait for a second admin; revoking is immediate.
          </>
        }
        actions={<NewTokenDialog wallets={wallets.map((w) => ({ id: w.id, name: w.name }))} />}
      />
      <TokensTable tokens={tokens} />
    </>
  );
}
