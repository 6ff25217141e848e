'use client';
import { CheckCheckIcon, ScrollTextIcon, ShieldIcon, WalletIcon, WebhookIcon } from 'lucide-react';
import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';

const ICONS = {
  wallets: WalletIcon,
  approvals: CheckCheckIcon,
  webhooks: WebhookIcon,
  audit: ScrollTextIcon,
  admin: ShieldIcon,
} as const;

export interface SidebarItem {
  href: string;
  label: string;
  icon: keyof typeof ICONS;
  badge?: React.ReactNode;
}

/** The console's sections, marking the current one; shared by the sidebar and the phone's drawer. */
export function SidebarNav({ items, onNavigate }: { items: SidebarItem[]; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="grid gap-1 p-2">
      {items.map((item) => {
        const Icon = ICONS[item.icon];
        // An entry stays current anywhere in its section (e.g. every /admin/* page for Admin).
        const section = `/${item.href.split('/')[1]}`;
        const active = pathname === section || pathname.startsWith(`${section}/`);
        return (
          <Link
            key={item.href}
            href={item.href}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
              active && 'bg-accent font-medium',
            )}
          >
            <Icon className="size-4" aria-hidden />
            {item.label}
            {item.badge}
          </Link>
        );
      })}
    </nav>
  );
}

/** The sidebar from tablet width up; phones get the same navigation in a drawer (MobileNav). */
export function AppSidebar({ items }: { items: SidebarItem[] }) {
  return (
    <aside className="hidden w-56 shrink-0 border-r bg-sidebar text-sidebar-foreground md:block">
      <div className="flex h-14 items-center border-b px-4 font-semibold">Custody Console</div>
      <SidebarNav items={items} />
    </aside>
  );
}
