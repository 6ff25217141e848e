// The review of a configuration change (users, policy, freeze, wallet connections): what changes, before and
// after where there is a before. A wallet's API key appears only as its last four characters.

import dynamic from 'next/dynamic';
import { CustodySettingsReviewPanel } from '@/components/approvals/custody-settings-review-panel';
import { ReviewWarnings } from '@/components/approvals/review-warnings';
import { ReviewFacts } from '@/components/operations/review-facts';
import { ReviewHeader } from '@/components/operations/review-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import {
  type AddressBookSaveReview,
  DESTINATION_POLICY_LABEL,
  describeDuration,
} from '@/lib/approvals/address-book';
import type { ConfigurationReview, PolicyEditReview, WalletRef } from '@/lib/approvals/configuration';
import { type CustodySettingsKind, isCustodySettingsReview } from '@/lib/approvals/custody-settings';
import { breachWords } from '@/lib/approvals/limits';
import { SCOPE_WORDS } from '@/lib/approvals/service-tokens';
import { formatUsd } from '@/lib/format';

// A payout schedule's review (its rows' table among them) loads with that request's page only.
const PayoutScheduleReviewPanel = dynamic(() =>
  import('@/components/payouts/payout-schedule-review-panel').then((m) => m.PayoutScheduleReviewPanel),
);

const walletFacts = (wallet: WalletRef) => [
  { label: 'Wallet', value: `${wallet.name} · ${wallet.blockchain}` },
  { label: 'Wallet id', value: wallet.id, className: 'font-mono text-xs break-all' },
  { label: 'Address', value: wallet.address, className: 'font-mono text-xs break-all' },
];

const key = (last4: string | null) => (last4 ? `•••• ${last4}` : '—');

function PolicyDiff({ review }: { review: PolicyEditReview }) {
  return (
    <Table aria-label={`Policy of ${review.operationLabel}: before and after`}>
      <TableHeader>
        <TableRow>
          <TableHead>Setting</TableHead>
          <TableHead>Before</TableHead>
          <TableHead>After</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {review.diff.map((row) => (
          <TableRow key={row.field}>
            <TableCell>{row.label}</TableCell>
            <TableCell className={row.changed ? 'line-through text-muted-foreground' : undefined}>
              {row.before}
            </TableCell>
            <TableCell className={row.changed ? 'font-semibold' : 'text-muted-foreground'}>
              {row.changed ? row.after : 'unchanged'}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function BookChanges({ review }: { review: AddressBookSaveReview }) {
  const changed = (before: string | undefined, after: string) =>
    before !== undefined && before !== after ? (
      <>
        <span className="block text-muted-foreground line-through">{before}</span>
        <span className="block font-semibold">{after}</span>
      </>
    ) : (
      after
    );
  return (
    <div className="grid gap-2">
      <ReviewFacts
        facts={[
          { label: 'Wallet', value: `${review.walletName} (${review.walletId})` },
          { label: 'Cooling-off after approval', value: describeDuration(review.coolingOffSeconds * 1000) },
        ]}
      />
      <div className="overflow-x-auto">
        <Table aria-label="Address book entries: before and after">
          <TableHeader>
            <TableRow>
              <TableHead>Entry</TableHead>
              <TableHead>Name</TableHead>
              <TableHead>Address</TableHead>
              <TableHead>Chain</TableHead>
              <TableHead>Tags</TableHead>
              <TableHead>Notes</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {review.entries.map((e, i) => (
              <TableRow key={`${e.address}-${i}`}>
                <TableCell>{e.before ? 'Change' : 'New'}</TableCell>
                <TableCell>{changed(e.before?.name, e.name)}</TableCell>
                <TableCell className="font-mono text-xs break-all">
                  {changed(e.before?.address, e.address)}
                </TableCell>
                <TableCell>{changed(e.before?.chain, e.chain)}</TableCell>
                <TableCell>{changed(e.before?.tags.join(', '), e.tags.join(', '))}</TableCell>
                <TableCell className="text-xs">{changed(e.before?.notes, e.notes)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

function Body({ review }: { review: Exclude<ConfigurationReview, { kind: CustodySettingsKind }> }) {
  switch (review.kind) {
    case 'userCreate':
      return (
        <ReviewFacts
          facts={[
            { label: 'Email', value: review.email },
            { label: 'Name', value: review.name },
            { label: 'Role', value: review.role },
            {
              label: 'Password',
              value:
                'When the request is approved, the person gets an invitation link at this address and chooses their own password there (and sets up an authenticator app if their role approves). Nobody else sees it.',
              wide: true,
            },
          ]}
        />
      );
    case 'userReset':
      return (
        <ReviewFacts
          facts={[
            { label: 'User', value: `${review.user.name} (${review.user.email})` },
            { label: 'Role', value: review.user.role },
            {
              label: 'Resets',
              value:
                review.scope === 'password-and-factors'
                  ? `The password and the ${review.factors} second factor${review.factors === 1 ? '' : 's'} they have`
                  : 'The password (their second factors stay)',
            },
            {
              label: 'Link',
              value:
                'When the request is approved, the old credentials stop working and their open sessions end; a link goes to their own address, where they choose new ones. Nobody else sees it.',
              wide: true,
            },
          ]}
        />
      );
    case 'userRole':
      return (
        <ReviewFacts
          facts={[
            { label: 'User', value: `${review.user.name} (${review.user.email})` },
            { label: 'Role', value: `${review.from} → ${review.to}` },
          ]}
        />
      );
    case 'userDisable':
      return (
        <ReviewFacts
          facts={[
            { label: 'User', value: `${review.user.name} (${review.user.email})` },
            { label: 'Role', value: review.user.role },
          ]}
        />
      );
    case 'userEnable':
      return (
        <ReviewFacts
          facts={[
            { label: 'User', value: `${review.user.name} (${review.user.email})` },
            { label: 'Role', value: review.user.role },
            { label: 'Disabled since', value: review.disabledAt ?? 'Not disabled' },
          ]}
        />
      );
    case 'policyEdit':
      return <PolicyDiff review={review} />;
    case 'limitEdit':
      return (
        <ReviewFacts
          facts={[
            {
              label: review.action === 'add' ? 'Limit added' : 'Limit removed',
              value: review.rule,
              wide: true,
            },
            { label: 'Above the limit', value: breachWords(review.values) },
          ]}
        />
      );
    case 'freezeLift':
      return (
        <ReviewFacts
          facts={[
            { label: 'Freeze', value: review.frozen ? `On, set by ${review.frozenBy ?? 'an admin'}` : 'Off' },
            { label: 'Approved requests held', value: review.heldApproved },
          ]}
        />
      );
    case 'walletConnect':
      return (
        <ReviewFacts
          facts={[...walletFacts(review.wallet), { label: 'API key', value: key(review.apiKeyLast4) }]}
        />
      );
    case 'walletRotate':
      return (
        <ReviewFacts
          facts={[
            ...walletFacts(review.wallet),
            { label: 'API key', value: `${key(review.previousApiKeyLast4)} → ${key(review.apiKeyLast4)}` },
          ]}
        />
      );
    case 'walletRemove':
      return <ReviewFacts facts={walletFacts(review.wallet)} />;
    case 'privateKeyReveal':
      return (
        <ReviewFacts
          facts={[
            { label: 'Wallet', value: review.walletName },
            { label: 'Address name', value: review.addressName ?? '—' },
            { label: 'Address', value: review.address, className: 'font-mono text-xs break-all', wide: true },
          ]}
        />
      );
    case 'addressBookSave':
      return <BookChanges review={review} />;
    case 'coolingOffEdit':
      return (
        <ReviewFacts
          facts={[
            {
              label: 'Cooling-off',
              value: `${describeDuration(review.beforeSeconds * 1000)} → ${describeDuration(review.afterSeconds * 1000)}`,
            },
            // Requests made before the setting existed left it as it was.
            ...(review.destinationPolicyBefore === undefined || review.destinationPolicyAfter === undefined
              ? []
              : [
                  {
                    label: DESTINATION_POLICY_LABEL,
                    value: `${onOff(review.destinationPolicyBefore)} → ${onOff(review.destinationPolicyAfter)}`,
                  },
                ]),
          ]}
        />
      );
    case 'serviceTokenCreate':
      return (
        <ReviewFacts
          facts={[
            { label: 'Name', value: review.name },
            { label: 'Scopes', value: review.scopes.map((s) => SCOPE_WORDS[s].label).join(', ') },
            { label: 'Wallets', value: review.walletNames.join(', ') },
            { label: 'Daily cap', value: `${formatUsd(review.dailyCapUsd)} over any 24 hours` },
            { label: 'Approvals per request', value: `at least ${review.minApprovals}` },
            {
              label: 'Networks',
              value: review.allowedCidrs.length > 0 ? review.allowedCidrs.join(', ') : 'any',
              className: 'font-mono text-xs break-all',
            },
            { label: 'Rate limit', value: `${review.rateLimitPerMinute} calls a minute` },
            { label: 'Webhook', value: review.webhookHint ?? 'none (the system polls)' },
            {
              label: 'Expires',
              value: `${review.expiresInDays} day${review.expiresInDays === 1 ? '' : 's'} after the approval`,
            },
          ]}
        />
      );
    case 'serviceTokenRotate':
      return (
        <ReviewFacts
          facts={[
            { label: 'Token', value: review.name },
            { label: 'Current prefix', value: review.prefix, className: 'font-mono text-xs' },
          ]}
        />
      );
  }
}

const onOff = (on: boolean) => (on ? 'On' : 'Off');

const INTRO: Record<Exclude<ConfigurationReview['kind'], CustodySettingsKind>, string> = {
  userCreate: 'Adds a person to the console and emails them an invitation.',
  userReset: 'Sends a person a link to choose a new password, and maybe a new second factor.',
  userRole: 'Changes what a person may do; their open sessions end.',
  userEnable: 'Lets a disabled person sign in again.',
  userDisable: 'Stops an admin from signing in; their open sessions end.',
  policyEdit: 'Changes how many approvals, above which amount, and for how long requests of this kind wait.',
  limitEdit:
    'Changes the spending limits every withdrawal and swap is checked against, at creation and at its final approval.',
  freezeLift: 'Lets the console send money-moving and signing requests to the custody service again.',
  walletConnect: 'Connects a wallet with its API key: the console can then move its funds.',
  walletRotate: 'Replaces the wallet’s API key.',
  walletRemove: 'Removes the wallet and its key from the console.',
  addressBookSave:
    'Adds or changes entries of a wallet’s address book; a new address can receive money once its cooling-off has passed.',
  coolingOffEdit:
    'Changes how long a new address book entry waits before it can receive money, and whether money goes only to address book entries.',
  serviceTokenCreate:
    'Makes a token a back-office system uses to call the console’s API; its withdrawals and swaps become requests people approve.',
  serviceTokenRotate: 'Gives the token a new secret; the system must switch to it.',
  payoutSchedule: 'Keeps a payout schedule; each run is a payout request approved like any other.',
  privateKeyReveal:
    'Shows an address’s private key once to the admin who asked: with it, the address’s funds move without the console.',
};

/** Every configuration kind's review; a second admin approves what it shows. */
export function ConfigurationReviewPanel({
  review,
  requiredApprovals,
}: {
  review: ConfigurationReview;
  requiredApprovals?: number;
}) {
  // A schedule's review is a payout's: its own panel, shared with the form that asks for it.
  if (review.kind === 'payoutSchedule')
    return <PayoutScheduleReviewPanel review={review} requiredApprovals={requiredApprovals} />;
  // A change to the custody service's own settings: its panel compares what is in force with what is proposed.
  if (isCustodySettingsReview(review))
    return <CustodySettingsReviewPanel review={review} requiredApprovals={requiredApprovals} />;
  const network = 'wallet' in review ? review.wallet.network : undefined;
  return (
    <section aria-labelledby="review-heading" className="grid gap-4 rounded-lg border p-4">
      <ReviewHeader headingId="review-heading" network={network} />
      <p className="text-sm">
        {INTRO[review.kind]} A second admin approves; the console makes the change when the last approval
        lands.
      </p>
      <Body review={review} />
      {requiredApprovals ? <ReviewFacts facts={[]} requiredApprovals={requiredApprovals} /> : null}
      <ReviewWarnings warnings={review.warnings} />
    </section>
  );
}
