import type * as React from 'react';
import { cn } from '@/lib/utils';

export interface ScrollTableProps extends React.ComponentProps<'table'> {
  /** Names the scrolling region for keyboard and screen-reader users. */
  regionLabel: string;
}

/**
 * A table that scrolls sideways inside its own box when it is wider than the screen (phones), instead
 * of widening the page. The box takes focus so keyboard users can scroll it too (WCAG 2.1.1).
 */
export function ScrollTable({ regionLabel, className, ...props }: ScrollTableProps) {
  return (
    <section
      aria-label={regionLabel}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-[inherit] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </section>
  );
}
