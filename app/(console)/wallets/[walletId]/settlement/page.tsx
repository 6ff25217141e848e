import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { SearchParams } from 'nuqs/server';
import { AddressPicker } from '@/components/settlement/address-picker';
import { RuleEditor } from '@/components/settlement/rule-editor';
import { RuleSummary } from '@/components/settlement/rule-summary';
import { WalletSettlementSwitch } from '@/components/settlement/wallet-settlement-switch';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NotOffered, ServiceError } from '@/components/wallets/service-error';
import { formatDateTime } from '@/lib/format';
import { bookOptions } from '@/lib/server/address-book';
import { lastChangeOf } from '@/lib/server/audit';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';
import { loadSettlement } from '@/lib/server/wallet-views';
import { findWalletConnection } from '@/lib/server/wallets';
import { loadSettlementSearch } from '@/lib/validation/settlement-search';

export const metadata: Metadata = { title: 'Auto-settlement' };

export default async function SettlementPage({
  params,
  searchParams,
}: {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const { addressId } = await loadSettlementSearch(searchParams);
  if (!(await findWalletConnection(walletId))) notFound();
  // Each change is a request a second admin approves.
  const canEdit = can(actor.role, 'settlementRule.request');
  const canToggle = can(actor.role, 'settlementToggle.request');
  const header = (
    <PageHeader
      title="Auto-settlement"
      description="Rules that move deposits onward automatically: for the whole wallet, and per child address."
    />
  );

  const view = await loadSettlement(walletId, addressId ?? undefined, actor.requestId);
  if (!view.ok) {
    return (
      <>
        {header}
        <ServiceError title="Could not read the auto-settlement settings" message={view.error} />
      </>
    );
  }
  const { settlement, rules: rulesState, selectedId } = view.data;
  const rules = rulesState.state === 'listed' ? rulesState.items : [];
  const changes = await lastChangeOf(
    await getDb(),
    ['settlement.rule_create', 'settlement.rule_update'],
    rules.map((r) => r.id),
  );
  // The destination picker is a convenience: without the book the editor still takes an address typed by hand.
  const book =
    canEdit && selectedId ? await bookOptions(await getDb(), walletId, actor.requestId).catch(() => []) : [];
  const editorContext = { walletId, chainSlug: view.data.chainSlug, symbols: view.data.symbols, book };

  return (
    <>
      {header}
      <Card className="mb-6">
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1.5">
            <CardTitle>Wallet level</CardTitle>
            <CardDescription>{settlement.name || 'Wallet auto-settlement'}</CardDescription>
          </div>
          <div className="flex items-center gap-3">
            <Badge variant={settlement.isActive ? 'success' : 'secondary'}>
              {settlement.isActive ? 'On' : 'Off'}
            </Badge>
            {canToggle ? (
              <WalletSettlementSwitch
                walletId={walletId}
                walletName={view.data.walletName}
                isActive={settlement.isActive}
              />
            ) : null}
          </div>
        </CardHeader>
        <CardContent className="grid gap-3">
          {settlement.rules.length === 0 ? (
            <p className="text-sm text-muted-foreground">No wallet-level rules.</p>
          ) : (
            settlement.rules.map((rule, i) => <RuleSummary key={rule.id ?? i} rule={rule} />)
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Child address rules</CardTitle>
          <CardDescription>
            Pick an address to see and edit its rules.
            {view.data.addresses.source === 'known'
              ? ' This custody service does not list addresses; the ones the console has seen are offered.'
              : ''}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <AddressPicker
            walletId={walletId}
            options={view.data.addresses.options}
            selected={selectedId ?? undefined}
          />
          {rulesState.state === 'failed' ? (
            <ServiceError title="Could not read the rules of this address" message={rulesState.error} />
          ) : null}
          {selectedId ? (
            <>
              {rulesState.state === 'not-offered' ? (
                <NotOffered>
                  This custody service does not list an address&apos;s rules; new rules can still be created.
                </NotOffered>
              ) : rulesState.state === 'failed' ? null : rules.length === 0 ? (
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
                        canEdit ? <RuleEditor {...editorContext} addressId={selectedId} rule={rule} /> : null
                      }
                    />
                  );
                })
              )}
              {canEdit ? <RuleEditor {...editorContext} addressId={selectedId} /> : null}
            </>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}
