import type * as React from 'react';
import { Badge } from '@/components/ui/badge';

export interface ReviewHeaderProps {
  /** The id the review's section is labelled by. */
  headingId: string;
  /** The wallet's network: a mainnet review says so in red. Left out where the network is not the point. */
  network?: string;
  /** The operation's own badges (sign only, broadcast, the typed-data kind...). */
  children?: React.ReactNode;
}

/** The top of every review: the "Review" heading, the network, and what kind of operation it is. */
export function ReviewHeader({ headingId, network, children }: ReviewHeaderProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 id={headingId} className="text-lg font-semibold">
        Review
      </h2>
      <div className="flex gap-2">
        {network === undefined ? null : network === 'mainnet' ? (
          <Badge variant="destructive">Mainnet</Badge>
        ) : (
          <Badge variant="outline">Testnet</Badge>
        )}
        {children}
      </div>
    </div>
  );
}
