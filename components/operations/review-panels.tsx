// The review of every operation kind, one panel per kind: the request forms show it before a request is
// created, the request page shows it to approvers.
import { type ComponentType, lazy, Suspense } from 'react';
import { RetryReviewPanel } from '@/components/approvals/retry-review-panel';
import { ReviewPanel } from '@/components/approvals/review-panel';
import { ContractReviewPanel } from '@/components/contracts/contract-panels';
import { PayoutReviewPanel } from '@/components/payouts/payout-review-panel';
import { PayoutScheduleReviewPanel } from '@/components/payouts/payout-schedule-review-panel';
import { TypedDataReviewPanel } from '@/components/signing/typed-data-review-panel';
import { SwapReviewPanel } from '@/components/swaps/swap-review-panel';
import type { OperationKind, OperationReview, ReviewOf } from '@/lib/approvals/kinds';

// The configuration panels load when a configuration request is shown: the money forms, which show only their
// own kinds, never carry them.
const ConfigurationReviewPanel = lazy(() =>
  import('@/components/approvals/configuration-review-panel').then((m) => ({
    default: m.ConfigurationReviewPanel,
  })),
);
const CustodySettingsReviewPanel = lazy(() =>
  import('@/components/approvals/custody-settings-review-panel').then((m) => ({
    default: m.CustodySettingsReviewPanel,
  })),
);

interface ReviewPanelProps<K extends OperationKind> {
  review: ReviewOf<K>;
  requiredApprovals?: number;
}

const REVIEW_PANELS: { [K in OperationKind]: ComponentType<ReviewPanelProps<K>> } = {
  withdraw: ReviewPanel,
  withdrawSign: ReviewPanel,
  swap: SwapReviewPanel,
  typedDataSign: TypedDataReviewPanel,
  contractWrite: ContractReviewPanel,
  contractSign: ContractReviewPanel,
  retry: RetryReviewPanel,
  payout: PayoutReviewPanel,
  userCreate: ConfigurationReviewPanel,
  userRole: ConfigurationReviewPanel,
  userEnable: ConfigurationReviewPanel,
  userReset: ConfigurationReviewPanel,
  userDisable: ConfigurationReviewPanel,
  policyEdit: ConfigurationReviewPanel,
  limitEdit: ConfigurationReviewPanel,
  freezeLift: ConfigurationReviewPanel,
  walletConnect: ConfigurationReviewPanel,
  walletRotate: ConfigurationReviewPanel,
  walletRemove: ConfigurationReviewPanel,
  addressBookSave: ConfigurationReviewPanel,
  serviceTokenCreate: ConfigurationReviewPanel,
  serviceTokenRotate: ConfigurationReviewPanel,
  coolingOffEdit: ConfigurationReviewPanel,
  payoutSchedule: PayoutScheduleReviewPanel,
  privateKeyReveal: ConfigurationReviewPanel,
  settlementToggle: CustodySettingsReviewPanel,
  settlementRule: CustodySettingsReviewPanel,
  whitelistAdd: CustodySettingsReviewPanel,
  whitelistRemove: CustodySettingsReviewPanel,
  beneficiaryDelete: CustodySettingsReviewPanel,
};

/** The panel of the review's own kind. */
export function OperationReviewPanel({
  review,
  requiredApprovals,
}: {
  review: OperationReview;
  requiredApprovals?: number;
}) {
  const Panel = REVIEW_PANELS[review.kind] as ComponentType<ReviewPanelProps<OperationKind>>;
  return (
    <Suspense fallback={null}>
      <Panel review={review} requiredApprovals={requiredApprovals} />
    </Suspense>
  );
}
