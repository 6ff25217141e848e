'use client';
// The console's links: a link prefetches the page it leads to once a person shows they may follow it (the pointer
// over it, keyboard focus; a tap sends the pointer events too), not as soon as it is on screen. Next's default prefetches every link in view,
// and each prefetch of a console page is a server render: the sidebar and a wallet's tabs alone are some fifteen
// links, so every page a person opened made the server render fifteen more they mostly never visit. A click on a
// link never prefetched still navigates in the page (the route's loading state shows at once).
import NextLink from 'next/link';
import { type ComponentProps, useState } from 'react';

export function Link({
  prefetch,
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: ComponentProps<typeof NextLink>) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      // `null` is Next's own default, restored once there is intent; `false` asks for none at all.
      prefetch={prefetch === false || !intent ? false : (prefetch ?? null)}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
    />
  );
}
