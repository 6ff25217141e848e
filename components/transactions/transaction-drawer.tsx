'use client';
// The detail of one transaction as a side sheet (Radix Dialog: focus trap, Escape closes, focus returns).
import { XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { CopyButton } from '@/components/ui/copy-button';
import {
  Dialog,
  DialogClose,
  DialogOverlay,
  DialogPortal,
  DialogPrimitiveContent,
  DialogPrimitiveDescription,
  DialogPrimitiveTitle,
} from '@/components/ui/dialog';
import { Link } from '@/components/ui/link';
import { Skeleton } from '@/components/ui/skeleton';
import { AddressText } from '@/components/wallets/address-text';
import { AmlBadge } from '@/components/wallets/aml-badge';
import { masterWalletFeePayment } from '@/lib/custody/fee-metadata';
import { formatAmount, formatDateTime, formatUsd } from '@/lib/format';
import type { TransactionRow } from '@/lib/wallet-view';
import { amountWithAsset, typeLabel } from './transaction-columns';
import { TransactionStatusBadge } from './transaction-status-badge';

export interface TransactionDrawerProps {
  walletId: string;
  /** Null while loading or when nothing is open. */
  transaction: TransactionRow | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isLoading?: boolean;
  error?: string | null;
  /** Webhook deliveries of the transaction (the webhooks feature renders them). */
  renderDeliveries?: (tx: TransactionRow) => ReactNode;
  /** Actions on the transaction, e.g. retry for a FAILED one. */
  renderActions?: (tx: TransactionRow) => ReactNode;
  /** Where focus goes back on close (the row that opened it); Radix only knows its own triggers. */
  returnFocusTo?: () => HTMLElement | null;
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="grid gap-2">
      <h3 className="text-sm font-semibold">{title}</h3>
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">{children}</dl>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{empty ? '—' : children}</dd>
    </>
  );
}

function Copyable({ value, what }: { value: string | null | undefined; what: string }) {
  if (!value) return null;
  return (
    <span className="inline-flex min-w-0 items-center gap-1">
      <code className="break-all font-mono text-xs">{value}</code>
      <CopyButton value={value} label={`Copy ${what}`} />
    </span>
  );
}

function OnChain({
  value,
  what,
  tx,
  kind,
}: {
  value: string | null | undefined;
  what: string;
  tx: TransactionRow;
  kind: 'tx' | 'address';
}) {
  if (!value) return null;
  return (
    <AddressText
      value={value}
      what={what}
      blockchain={tx.blockchain?.slug}
      network={tx.network}
      kind={kind}
      full
    />
  );
}

function TransactionDetail({
  walletId,
  tx,
  renderDeliveries,
  renderActions,
}: {
  walletId: string;
  tx: TransactionRow;
  renderDeliveries?: TransactionDrawerProps['renderDeliveries'];
  renderActions?: TransactionDrawerProps['renderActions'];
}) {
  const decimals = tx.asset?.decimals ?? 18;
  const symbol = tx.asset?.symbol ?? tx.currency ?? '';
  const aml =
    tx.amlScreening && 'status' in tx.amlScreening
      ? (tx.amlScreening as { status: string; provider?: string; message?: string })
      : null;
  const hasMetadata = tx.metadata && Object.keys(tx.metadata).length > 0;
  const feePayment = masterWalletFeePayment(tx.feeMetadata);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <TransactionStatusBadge status={tx.status} />
        <span className="text-sm text-muted-foreground">{typeLabel(tx.type)}</span>
        {tx.network === 'mainnet' ? (
          <span className="text-xs font-medium text-destructive">Mainnet</span>
        ) : null}
        {renderActions ? <div className="ml-auto">{renderActions(tx)}</div> : null}
      </div>

      <Group title="Summary">
        <Item label="Transaction id">
          <Copyable value={tx.id} what="transaction id" />
        </Item>
        <Item label="Reference">
          <Copyable value={tx.reference} what="reference" />
        </Item>
        <Item label="Created">{formatDateTime(tx.createdAt)}</Item>
        <Item label="Updated">{formatDateTime(tx.updatedAt)}</Item>
        <Item label="Confirmed">{tx.confirmed ? 'Yes' : 'No'}</Item>
        <Item label="Confirmations">{tx.confirmations}</Item>
        <Item label="Channel">{tx.createdChannel}</Item>
      </Group>

      <Group title="Amounts">
        <Item label="Amount">{tx.amount !== null ? amountWithAsset(tx) : null}</Item>
        <Item label="Value in USD">{formatUsd(tx.amountUSD)}</Item>
        <Item label="Amount paid">
          {tx.amountPaid !== null ? `${formatAmount(tx.amountPaid, decimals)} ${symbol}` : null}
        </Item>
        <Item label="Rate">{tx.rate}</Item>
        <Item label="Rate (USD)">{tx.rateUSD !== null ? formatUsd(tx.rateUSD) : null}</Item>
        {tx.toAmount !== null ? (
          <Item label="Received">{`${formatAmount(tx.toAmount, tx.toAsset?.decimals ?? 18)} ${tx.toAsset?.symbol ?? tx.toCurrency ?? ''}`}</Item>
        ) : null}
        <Item label="Gas fee">
          {tx.gasFee !== null ? `${formatAmount(tx.gasFee, 18)} ${tx.blockchain?.symbol ?? ''}` : null}
        </Item>
        {feePayment ? (
          <Item label="Gas fee paid by">
            <span className="grid gap-0.5">
              <span>Master wallet (gasless withdrawal)</span>
              <OnChain value={feePayment.payerAddress} what="fee payer address" tx={tx} kind="address" />
            </span>
          </Item>
        ) : null}
        <Item label="Gas price">{tx.gasPrice}</Item>
        <Item label="Gas used">{tx.gasUsed !== null ? String(tx.gasUsed) : null}</Item>
      </Group>

      <Group title="Parties">
        <Item label="From">
          <OnChain value={tx.senderAddress} what="sender address" tx={tx} kind="address" />
        </Item>
        <Item label="To">
          <OnChain value={tx.recipientAddress} what="recipient address" tx={tx} kind="address" />
        </Item>
        <Item label="Child address">
          {tx.addressId ? (
            <Link
              className="underline underline-offset-4"
              href={`/wallets/${encodeURIComponent(walletId)}/addresses/${encodeURIComponent(tx.addressId)}`}
            >
              {tx.address?.name ?? tx.addressId}
            </Link>
          ) : null}
        </Item>
        <Item label="Beneficiary">
          {tx.beneficiary ? String((tx.beneficiary as { name?: unknown }).name ?? 'yes') : null}
        </Item>
      </Group>

      <Group title="Chain">
        <Item label="Blockchain">{tx.blockchain?.name}</Item>
        <Item label="Network">{tx.network}</Item>
        <Item label="Chain id">{tx.chainId}</Item>
        <Item label="Hash">
          <OnChain value={tx.hash} what="transaction hash" tx={tx} kind="tx" />
        </Item>
        <Item label="Block">{tx.blockNumber}</Item>
        <Item label="Block hash">
          <Copyable value={tx.blockHash} what="block hash" />
        </Item>
        <Item label="Token contract">
          <OnChain value={tx.tokenAddress} what="token contract" tx={tx} kind="address" />
        </Item>
      </Group>

      {tx.type === 'DEPOSIT' || tx.assetSwept !== null ? (
        <Group title="Sweep">
          <Item label="Swept">{tx.assetSwept === null ? null : tx.assetSwept ? 'Yes' : 'No'}</Item>
          <Item label="Swept amount">
            {tx.assetSweptAmount !== null ? `${formatAmount(tx.assetSweptAmount, decimals)} ${symbol}` : null}
          </Item>
          <Item label="Swept at">{tx.assetSweptAt ? formatDateTime(tx.assetSweptAt) : null}</Item>
          <Item label="Sweep hash">
            <OnChain value={tx.assetSweptHash} what="sweep hash" tx={tx} kind="tx" />
          </Item>
          <Item label="Sweep gas fee">{tx.assetSweptGasFee}</Item>
          <Item label="Swept to">
            <OnChain value={tx.assetSweptRecipientAddress} what="sweep recipient" tx={tx} kind="address" />
          </Item>
        </Group>
      ) : null}

      <Group title="AML">
        <Item label="Screening">
          <AmlBadge aml={aml} />
        </Item>
        <Item label="Provider">{aml?.provider}</Item>
        <Item label="Message">{aml?.message}</Item>
      </Group>

      <Group title="Metadata">
        <Item label="Note">{tx.note}</Item>
        <Item label="Reason">{tx.reason}</Item>
        <Item label="Metadata">
          {hasMetadata ? (
            <pre className="overflow-x-auto rounded bg-muted p-2 text-xs">
              {JSON.stringify(tx.metadata, null, 2)}
            </pre>
          ) : null}
        </Item>
      </Group>

      {renderDeliveries ? renderDeliveries(tx) : null}

      <details className="rounded-md border p-3">
        <summary className="cursor-pointer text-sm font-semibold">Raw JSON</summary>
        <div className="mt-2 flex justify-end">
          <CopyButton value={JSON.stringify(tx, null, 2)} label="Copy raw JSON" />
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard */}
        <pre tabIndex={0} className="max-h-96 overflow-auto rounded bg-muted p-2 text-xs">
          {JSON.stringify(tx, null, 2)}
        </pre>
      </details>
    </div>
  );
}

export function TransactionDrawer({
  walletId,
  transaction,
  open,
  onOpenChange,
  isLoading = false,
  error = null,
  renderDeliveries,
  renderActions,
  returnFocusTo,
}: TransactionDrawerProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogPortal>
        <DialogOverlay className="fixed inset-0 z-50 bg-black/60" />
        <DialogPrimitiveContent
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.();
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-2xl flex-col border-l bg-background shadow-lg"
        >
          <div className="flex items-start justify-between gap-4 border-b p-4">
            <div className="grid gap-1">
              <DialogPrimitiveTitle className="text-lg font-semibold">
                {transaction
                  ? `${typeLabel(transaction.type)} of ${amountWithAsset(transaction)}`
                  : 'Transaction'}
              </DialogPrimitiveTitle>
              <DialogPrimitiveDescription className="text-sm text-muted-foreground">
                {transaction ? `Reference ${transaction.reference}` : 'Details of one transaction'}
              </DialogPrimitiveDescription>
            </div>
            <DialogClose className="rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <XIcon className="size-4" aria-hidden />
              <span className="sr-only">Close</span>
            </DialogClose>
          </div>
          <div className="flex-1 overflow-y-auto p-4">
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : transaction ? (
              <TransactionDetail
                walletId={walletId}
                tx={transaction}
                renderDeliveries={renderDeliveries}
                renderActions={renderActions}
              />
            ) : isLoading ? (
              <div className="grid gap-3" role="status" aria-label="Loading transaction">
                <Skeleton className="h-6 w-1/3" />
                <Skeleton className="h-32 w-full" />
                <Skeleton className="h-32 w-full" />
              </div>
            ) : null}
          </div>
        </DialogPrimitiveContent>
      </DialogPortal>
    </Dialog>
  );
}
