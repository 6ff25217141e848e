import type { Metadata } from 'next';
import { CoolingOffForm } from '@/components/address-book/cooling-off-form';
import { FreezeToggle } from '@/components/approvals/freeze-toggle';
import { PolicyForm } from '@/components/approvals/policy-form';
import { SpendingLimits } from '@/components/approvals/spending-limits';
import { PageHeader } from '@/components/shell/page-header';
import { addressBookPolicyOf } from '@/lib/server/address-book';
import { getApprovalEngine } from '@/lib/server/approvals';
import { OPERATION_TYPES } from '@/lib/server/approvals/registry';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { walletConnectionsOfRender } from '@/lib/server/wallets';

export const metadata: Metadata = { title: 'Approval policy' };

export default async function PolicyPage() {
  await requirePage('policy.edit');
  const engine = await getApprovalEngine();
  const [frozen, bookPolicy, limits, wallets, policies] = await Promise.all([
    engine.isFrozen(),
    getDb().then(addressBookPolicyOf),
    engine.spendingLimits(),
    walletConnectionsOfRender(),
    Promise.all(
      Object.values(OPERATION_TYPES).map(async (type) => ({
        type: type.key,
        label: type.label,
        policy: await engine.getPolicy(type.key),
      })),
    ),
  ]);
  return (
    <>
      <PageHeader
        title="Approval policy"
        description="How many people approve each kind of operation, how long a request stays open, and how much may be spent in a window. A policy change and lifting the freeze wait for a second admin; every change is audited."
      />
      <div className="grid gap-6">
        <FreezeToggle frozen={frozen} />
        <CoolingOffForm
          coolingOffSeconds={bookPolicy.coolingOffSeconds}
          destinationPolicy={bookPolicy.destinationPolicy}
        />
        {policies.map((p) => (
          <PolicyForm
            key={p.type}
            operationType={p.type}
            label={p.label}
            approvals={p.policy.approvals}
            thresholdUsd={p.policy.thresholdUsd}
            expirySeconds={p.policy.expirySeconds}
          />
        ))}
        <SpendingLimits
          rules={limits.map((rule) => ({
            id: rule.id,
            description: rule.description,
            onBreach: rule.onBreach,
            extraApprovals: rule.extraApprovals,
          }))}
          wallets={wallets.map((w) => ({ id: w.id, name: w.name }))}
        />
      </div>
    </>
  );
}
