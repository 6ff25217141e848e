// The request page's review and result, one entry per operation kind: a new kind does not compile until it says
// what its approvers see and what its outcome shows.
import dynamic from 'next/dynamic';
import type { ComponentType } from 'react';
import { ContractPanels } from '@/components/contracts/contract-panels';
import { TypedDataResultPanel } from '@/components/signing/typed-data-result';
import { TypedDataReviewPanel } from '@/components/signing/typed-data-review-panel';
import { SwapQuoteCheck } from '@/components/swaps/swap-quote-check';
import { SwapResultPanel } from '@/components/swaps/swap-result';
import { SwapReviewPanel } from '@/components/swaps/swap-review-panel';
import type { ConfigurationKind } from '@/lib/approvals/configuration';
import type { OperationKind, ReviewOf } from '@/lib/approvals/kinds';
import type { RequestDetailDto } from '@/lib/approvals/requests';
import type { TypedDataResult } from '@/lib/approvals/signing';
import type { SwapResult } from '@/lib/approvals/swaps';
import { ConfigurationOutcome } from './configuration-outcome';
import { ConfigurationReviewPanel } from './configuration-review-panel';
import { RetryReviewPanel } from './retry-review-panel';
import { ReviewPanel } from './review-panel';
import { SignedTransactions } from './signed-transactions';

// A payout's panels (its rows' table among them) load with a payout's page only, not with every request's.
const payoutPanels = () => import('@/components/payouts/payout-review-panel');
const PayoutReviewPanel = dynamic(() => payoutPanels().then((m) => m.PayoutReviewPanel));
const PayoutBatches = dynamic(() => payoutPanels().then((m) => m.PayoutBatches));

/** A request whose review is of kind `K`. */
type RequestOf<K extends OperationKind> = Omit<RequestDetailDto, 'review'> & { review: ReviewOf<K> };

export interface RequestPanelsProps<K extends OperationKind = OperationKind> {
  request: RequestOf<K>;
  /** The request changed behind the page (a link sent again): read it anew. */
  onChanged: () => void;
}

function ConfigurationPanels({ request, onChanged }: RequestPanelsProps<ConfigurationKind>) {
  return (
    <>
      <ConfigurationOutcome
        requestId={request.id}
        result={request.configurationResult}
        isRequester={request.isRequester}
        onChanged={onChanged}
      />
      <ConfigurationReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />
    </>
  );
}

function PayoutPanels({ request }: RequestPanelsProps<'payout'>) {
  return (
    <>
      {request.payoutResult ? <PayoutBatches result={request.payoutResult} items={request.items} /> : null}
      <PayoutReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />
    </>
  );
}

function RetryPanels({ request }: RequestPanelsProps<'retry'>) {
  return <RetryReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />;
}

function ContractRequestPanels({ request }: RequestPanelsProps<'contractWrite' | 'contractSign'>) {
  return (
    <ContractPanels
      review={request.review}
      result={request.result}
      items={request.items}
      requiredApprovals={request.requiredApprovals}
    />
  );
}

function WithdrawalPanels({ request }: RequestPanelsProps<'withdraw' | 'withdrawSign'>) {
  return (
    <>
      <ReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />
      {request.result ? <SignedTransactions result={request.result} review={request.review} /> : null}
    </>
  );
}

function SwapPanels({ request }: RequestPanelsProps<'swap'>) {
  // The request carries the service's answer as it was stored; a swap's is its rate and amount received.
  const result = request.result as SwapResult | null;
  return (
    <>
      {/* Approvers compare the quote they approve with the market now. */}
      {request.status === 'PENDING_APPROVAL' && request.can.approve ? (
        <SwapQuoteCheck requestId={request.id} review={request.review} />
      ) : null}
      <SwapReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />
      {result ? <SwapResultPanel result={result} status={request.items[0]?.status ?? null} /> : null}
    </>
  );
}

function TypedDataPanels({ request }: RequestPanelsProps<'typedDataSign'>) {
  const result = request.result as TypedDataResult | null;
  return (
    <>
      <TypedDataReviewPanel review={request.review} requiredApprovals={request.requiredApprovals} />
      {result ? <TypedDataResultPanel result={result} /> : null}
    </>
  );
}

export const REQUEST_PANELS: { readonly [K in OperationKind]: ComponentType<RequestPanelsProps<K>> } = {
  withdraw: WithdrawalPanels,
  withdrawSign: WithdrawalPanels,
  swap: SwapPanels,
  typedDataSign: TypedDataPanels,
  contractWrite: ContractRequestPanels,
  contractSign: ContractRequestPanels,
  retry: RetryPanels,
  payout: PayoutPanels,
  userCreate: ConfigurationPanels,
  userReset: ConfigurationPanels,
  userRole: ConfigurationPanels,
  userEnable: ConfigurationPanels,
  userDisable: ConfigurationPanels,
  policyEdit: ConfigurationPanels,
  limitEdit: ConfigurationPanels,
  freezeLift: ConfigurationPanels,
  walletConnect: ConfigurationPanels,
  walletRotate: ConfigurationPanels,
  walletRemove: ConfigurationPanels,
  addressBookSave: ConfigurationPanels,
  coolingOffEdit: ConfigurationPanels,
  serviceTokenCreate: ConfigurationPanels,
  serviceTokenRotate: ConfigurationPanels,
  payoutSchedule: ConfigurationPanels,
  privateKeyReveal: ConfigurationPanels,
  settlementToggle: ConfigurationPanels,
  settlementRule: ConfigurationPanels,
  whitelistAdd: ConfigurationPanels,
  whitelistRemove: ConfigurationPanels,
  beneficiaryDelete: ConfigurationPanels,
};

/** The review and result panels of the request's own kind. */
export function RequestPanels({ request, onChanged }: RequestPanelsProps) {
  const Panels = REQUEST_PANELS[request.review.kind] as ComponentType<RequestPanelsProps>;
  return <Panels request={request} onChanged={onChanged} />;
}
