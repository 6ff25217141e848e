import { ExternalLinkIcon } from 'lucide-react';
import { CopyButton } from '@/components/ui/copy-button';
import { explorerUrl, shortAddress } from '@/lib/format';

export interface AddressTextProps {
  value: string;
  /** What the value is, for accessible names: "address", "wallet address", "hash". */
  what?: string;
  blockchain?: string | null;
  network?: string | null;
  kind?: 'address' | 'tx';
  full?: boolean;
}

/** An address or hash: shortened (full value in the title), a copy button and an explorer link. */
export function AddressText({
  value,
  what = 'address',
  blockchain,
  network,
  kind = 'address',
  full,
}: AddressTextProps) {
  const url = explorerUrl(blockchain, network, kind, value);
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-1">
      <code className={full ? 'break-all font-mono text-sm' : 'truncate font-mono text-sm'} title={value}>
        {full ? value : shortAddress(value, 6)}
      </code>
      <CopyButton value={value} label={`Copy ${what}`} />
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noreferrer noopener"
          className="inline-flex size-7 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={`Open ${what} in the block explorer`}
          title="Block explorer"
        >
          <ExternalLinkIcon className="size-4" aria-hidden />
        </a>
      ) : null}
    </span>
  );
}
