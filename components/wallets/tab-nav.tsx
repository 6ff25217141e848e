'use client';
import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';

export interface TabNavItem {
  href: string;
  label: string;
  /** Active only on this exact path (an index tab), not on its sub-pages. */
  exact?: boolean;
}

/** Links styled as tabs; the current page is marked with aria-current. */
export function TabNav({ items, label }: { items: TabNavItem[]; label: string }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="mb-6 border-b">
      <ul className="-mb-px flex flex-wrap gap-1">
        {items.map((item) => {
          const active = item.exact
            ? pathname === item.href
            : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active ? 'border-primary text-foreground' : 'border-transparent',
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
