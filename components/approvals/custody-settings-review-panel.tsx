// The review of a change to the custody service's settings that direct money (auto-settlement, the whitelist,
// beneficiaries): for a rule, the rule in force beside the proposed one, field by field. Laid out as stacked
// label/value pairs, so every value and warning reads on a phone without scrolling sideways.
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Badge } from '@/components/ui/badge';
import {
  type CustodySettingsReview,
  describeBookName,
  type NamedAddress,
  type RuleView,
  type SettlementRuleReview,
} from '@/lib/approvals/custody-settings';

const INTRO: Record<CustodySettingsReview['kind'], string> = {
  settlementToggle:
    'Switches the wallet’s auto-settlement: while it is on, deposits matching the wallet-level rules are forwarded automatically.',
  settlementRule:
    'Deposits to this child address that match the rule are forwarded automatically to its destination.',
  whitelistAdd: 'Whitelists an external address of this wallet; the custody service screens it (AML).',
  whitelistRemove: 'Removes an address from the wallet’s whitelist.',
  beneficiaryDelete: 'Deletes a beneficiary of this wallet at the custody service.',
};

const walletFact = (review: CustodySettingsReview) => ({
  label: 'Wallet',
  value: `${review.wallet.name} · ${review.wallet.blockchain} (${review.wallet.network})`,
});

/** An address in full (it wraps), with the address book's name for it under it. */
function AddressValue({ named }: { named: NamedAddress }) {
  const book = describeBookName(named);
  return (
    <>
      <span className="block font-mono text-xs break-all">{named.address}</span>
      <span className="block text-muted-foreground">{book ?? 'Not in the address book'}</span>
    </>
  );
}

function RuleComparison({ review }: { review: SettlementRuleReview }) {
  const compared = review.before !== null;
  const destination = (rule: RuleView) => <AddressValue named={rule.destination} />;
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">
        {review.action === 'create'
          ? 'The new rule'
          : compared
            ? 'The rule in force and as proposed'
            : 'The rule as proposed'}
      </h3>
      <dl aria-label="Rule fields" className="grid gap-3 text-sm sm:grid-cols-2">
        {review.rows.map((row) => {
          const isDestination = row.field === 'destination';
          return (
            <div key={row.field} className={isDestination ? 'min-w-0 sm:col-span-2' : 'min-w-0'}>
              <dt className="flex flex-wrap items-center gap-2 text-muted-foreground">
                {row.label}
                {row.changed ? <Badge variant="warning">Changed</Badge> : null}
              </dt>
              {compared && row.changed ? (
                <>
                  <dd className="wrap-anywhere">
                    <span className="text-muted-foreground">In force: </span>
                    {isDestination && review.before ? destination(review.before) : row.before}
                  </dd>
                  <dd className="wrap-anywhere font-semibold">
                    <span className="font-normal text-muted-foreground">Proposed: </span>
                    {isDestination ? destination(review.after) : row.after}
                  </dd>
                </>
              ) : (
                <dd className="wrap-anywhere">
                  {isDestination ? destination(review.after) : row.after}
                  {compared ? <span className="text-muted-foreground"> (unchanged)</span> : null}
                </dd>
              )}
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function Body({ review }: { review: CustodySettingsReview }) {
  switch (review.kind) {
    case 'settlementToggle':
      return (
        <div className="grid gap-3">
          <ReviewFacts
            facts={[
              walletFact(review),
              {
                label: 'Auto-settlement',
                value: `${review.before ? 'On' : 'Off'} → ${review.after ? 'On' : 'Off'}`,
              },
            ]}
          />
          <div className="grid gap-2">
            <h3 className="text-sm font-semibold">Wallet-level rules</h3>
            {review.rules.length === 0 ? (
              <p className="text-sm text-muted-foreground">No wallet-level rules.</p>
            ) : (
              <ul aria-label="Wallet-level rules" className="grid gap-2 text-sm">
                {review.rules.map((rule, i) => (
                  // Wallet-level rules have no id of their own (spec); their order is the service's.
                  <li key={`${rule.name}-${i}`} className="min-w-0 rounded-md border p-2">
                    <span className="font-medium">{rule.name}</span> ({rule.isActive ? 'on' : 'off'}):{' '}
                    {rule.sourceAssets} from {rule.minAmount} to {rule.maxAmount}, as {rule.destinationAsset},
                    to
                    <AddressValue named={rule.destination} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      );
    case 'settlementRule':
      return (
        <div className="grid gap-3">
          <ReviewFacts
            facts={[
              walletFact(review),
              {
                label: 'Child address',
                value: (
                  <>
                    <span className="block">{review.address.name ?? 'Unnamed address'}</span>
                    <span className="block font-mono text-xs break-all">{review.address.address}</span>
                  </>
                ),
              },
            ]}
          />
          <RuleComparison review={review} />
        </div>
      );
    case 'whitelistAdd':
      return (
        <ReviewFacts
          facts={[
            walletFact(review),
            { label: 'Address', value: <AddressValue named={review.address} />, wide: true },
            { label: 'Name at the service', value: review.name ?? 'None' },
            {
              label: 'Options',
              value:
                [
                  review.disableAutoSweep ? 'deposits stay on the address (no auto-sweep)' : null,
                  review.enableGaslessWithdraw ? 'gasless withdrawals' : null,
                  review.showPrivateKey ? 'private key may be shown' : null,
                ]
                  .filter(Boolean)
                  .join(', ') || 'None',
            },
            {
              label: 'Private key',
              value: review.privateKeyGiven
                ? 'Given: kept sealed with the request and sent to the custody service once; nobody sees it.'
                : 'Not given',
              wide: true,
            },
            review.metadata
              ? {
                  label: 'Metadata',
                  value: review.metadata,
                  className: 'font-mono text-xs break-all',
                  wide: true,
                }
              : null,
          ]}
        />
      );
    case 'whitelistRemove':
      return (
        <ReviewFacts
          facts={[
            walletFact(review),
            { label: 'Name', value: review.address.name ?? 'Unnamed address' },
            { label: 'Address', value: review.address.address, className: 'font-mono text-xs break-all' },
            { label: 'Type', value: review.address.type },
            review.address.bookName ? { label: 'Address book', value: review.address.bookName } : null,
          ]}
        />
      );
    case 'beneficiaryDelete': {
      const b = review.beneficiary;
      const roles = [
        b.isDefault ? 'default' : null,
        b.isSettlement ? 'settlement destination' : null,
        b.isWhitelisted ? 'whitelisted' : null,
      ].filter(Boolean);
      return (
        <ReviewFacts
          facts={[
            walletFact(review),
            { label: 'Beneficiary', value: b.name ?? 'Not shown by the service' },
            { label: 'Address', value: b.address ?? '—', className: 'font-mono text-xs break-all' },
            { label: 'Beneficiary id', value: b.id, className: 'font-mono text-xs break-all' },
            roles.length > 0 ? { label: 'It is', value: roles.join(', ') } : null,
          ]}
        />
      );
    }
  }
}

export function CustodySettingsReviewPanel({
  review,
  requiredApprovals,
}: {
  review: CustodySettingsReview;
  requiredApprovals?: number;
}) {
  return (
    <section aria-labelledby="review-heading" className="grid min-w-0 gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={review.wallet.network} />
      <p className="text-sm">
        {INTRO[review.kind]} A second admin approves; the console sends the change to the custody service when
        the last approval lands.
      </p>
      <Body review={review} />
      {requiredApprovals ? <ReviewFacts facts={[]} requiredApprovals={requiredApprovals} /> : null}
      <ReviewWarnings warnings={review.warnings} />
    </section>
  );
}
