import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { AddressPicker } from '@/components/settlement/address-picker';
import { RuleEditor } from '@/components/settlement/rule-editor';
import { RuleSummary } from '@/components/settlement/rule-summary';
import { WalletSettlementSwitch } from '@/components/settlement/wallet-settlement-switch';
import { PageHeader } from '@/components/shell/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';
import { lastChangeOf } from '@/lib/server/audit';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';
import { custodyFor } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Auto-settlement' };

const searchSchema = z.object({ addressId: z.string().max(100).optional().catch(undefined) });

export default async function SettlementPage({
  params,
  searchParams,
}: {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<Record<string, string>>;
}) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const { addressId } = searchSchema.parse(await searchParams);
  const client = await custodyFor(walletId);
  if (!client) notFound();
  const canEdit = can(actor.role, 'settlement.edit');

  const [wallet, settlement, addresses] = await Promise.all([
    client.wallets.get({ walletId }),
    client.autoSettlement.get({ walletId }),
    client.wallets.listAddresses({ walletId, type: 'INTERNAL', limit: 100 }),
  ]);
  const chain = wallet.data.blockchain;
  const symbols = [...new Set(wallet.data.assets.filter((a) => a.isActive).map((a) => a.asset.symbol))];
  const addressOptions = addresses.data.map((a) => ({
    id: a.id,
    label: `${a.name ?? 'Unnamed'} · ${a.address}`,
  }));
  const selected = addressId ? addresses.data.find((a) => a.id === addressId) : undefined;

  let rules: AutoSettlementRule[] = [];
  let rulesError: string | null = null;
  if (selected) {
    try {
      rules = (await client.addressRules.list({ walletId, addressId: selected.id })).data;
    } catch (error) {
      rulesError = describeFailure(error, actor.requestId, 'list address rules').message;
    }
  }
  const changes = await lastChangeOf(
    await getDb(),
    ['settlement.rule_create', 'settlement.rule_update'],
    rules.map((r) => r.id),
  );
  const editorContext = { walletId, chainSlug: chain.slug, symbols };

  return (
    <>
      <PageHeader
        title="Auto-settlement"
        description="Rules that move deposits onward automatically: for the whole wallet, and per child address."
      />
      <Card className="mb-6">
        <CardHeader className="flex-row items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Wallet level</CardTitle>
            <CardDescription>{settlement.data.name || 'Wallet auto-settlement'}</CardDescription>
          </div>
          <div className="flex items-center gap-3">
            <Badge variant={settlement.data.isActive ? 'success' : 'secondary'}>
              {settlement.data.isActive ? 'On' : 'Off'}
            </Badge>
            {canEdit ? (
              <WalletSettlementSwitch
                walletId={walletId}
                walletName={wallet.data.name}
                isActive={settlement.data.isActive}
              />
            ) : null}
          </div>
        </CardHeader>
        <CardContent className="grid gap-3">
          {settlement.data.rules.length === 0 ? (
            <p className="text-sm text-muted-foreground">No wallet-level rules.</p>
          ) : (
            settlement.data.rules.map((rule, i) => <RuleSummary key={rule.id ?? i} rule={rule} />)
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Child address rules</CardTitle>
          <CardDescription>Pick an address to see and edit its rules.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <AddressPicker walletId={walletId} options={addressOptions} selected={selected?.id} />
          {rulesError ? (
            <Alert variant="destructive">
              <AlertDescription>{rulesError}</AlertDescription>
            </Alert>
          ) : null}
          {selected ? (
            <>
              {rules.length === 0 ? (
                <p className="text-sm text-muted-foreground">This address has no rules yet.</p>
              ) : (
                rules.map((rule) => {
                  const change = changes.get(rule.id);
                  return (
                    <RuleSummary
                      key={rule.id}
                      rule={rule}
                      footer={
                        <p className="text-xs text-muted-foreground" data-testid="rule-updated">
                          Updated {formatDateTime(rule.updatedAt)}
                          {change ? ` by ${change.actorEmail}` : ''}
                        </p>
                      }
                      action={
                        canEdit ? <RuleEditor {...editorContext} addressId={selected.id} rule={rule} /> : null
                      }
                    />
                  );
                })
              )}
              {canEdit ? <RuleEditor {...editorContext} addressId={selected.id} /> : null}
            </>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}
