import { headers } from 'next/headers';
import { forbidden, notFound, redirect } from 'next/navigation';
import { ApprovalsCount } from '@/components/approvals/approvals-count';
import { CommandPalette } from '@/components/command-palette/command-palette';
import { paletteCommandsFor } from '@/components/command-palette/palette-commands';
import { LiveEvents } from '@/components/live';
import { AppSidebar } from '@/components/shell/app-sidebar';
import { ConsoleProviders } from '@/components/shell/console-providers';
import { FreezeBanner } from '@/components/shell/freeze-banner';
import { MobileNav } from '@/components/shell/mobile-nav';
import { OneAdminBanner } from '@/components/shell/one-admin-banner';
import { SandboxBanner } from '@/components/shell/sandbox-banner';
import { ThemeToggle } from '@/components/shell/theme-toggle';
import { UserMenu } from '@/components/shell/user-menu';
import { getApprovalEngine } from '@/lib/server/approvals';
import { currentActor } from '@/lib/server/guard';
import { navFor } from '@/lib/server/navigation';
import { pageAccess } from '@/lib/server/page-access';
import { can } from '@/lib/server/permissions';
import { walletConnectionsOfRender } from '@/lib/server/wallets';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  // Before anything streams, so the answer's status says it: 403 for a page this role may not open, 404 for an
  // id that names nothing. The page checks again itself (client-side navigations skip this layout).
  const pathname = (await headers()).get('x-pathname');
  const access = pathname ? await pageAccess(pathname, actor) : null;
  if (access === 'forbidden') forbidden();
  if (access === 'not-found') notFound();
  const approvalsCount = can(actor.role, 'withdraw.approve')
    ? await (await getApprovalEngine()).countNeedingApproval(actor).catch(() => 0)
    : 0;
  // Only what this role may open reaches the browser; the palette never decides permissions itself.
  const wallets = can(actor.role, 'read') ? await walletConnectionsOfRender().catch(() => []) : [];
  const commands = paletteCommandsFor(
    actor.role,
    wallets.map((w) => ({ id: w.id, name: w.name })),
  );
  const nav = navFor(actor.role).map(({ href, label, icon }) => ({
    href,
    label,
    icon,
    badge: href === '/approvals' ? <ApprovalsCount initial={approvalsCount} /> : undefined,
  }));
  return (
    <ConsoleProviders>
      <div className="flex min-h-screen flex-col">
        <SandboxBanner />
        <FreezeBanner />
        <OneAdminBanner role={actor.role} />
        <div className="flex flex-1">
          <AppSidebar items={nav} />
          <div className="flex min-w-0 flex-1 flex-col">
            <header className="flex h-14 items-center gap-2 border-b px-2 sm:px-4">
              <MobileNav items={nav} />
              <span className="font-semibold md:hidden">Console</span>
              <div className="flex-1" />
              <CommandPalette commands={commands} />
              <LiveEvents notifyWithdrawals={can(actor.role, 'withdraw.request')} />
              <ThemeToggle />
              <UserMenu name={actor.name} email={actor.email} role={actor.role} />
            </header>
            <main id="main" className="min-w-0 flex-1 p-4 sm:p-6">
              {children}
            </main>
          </div>
        </div>
      </div>
    </ConsoleProviders>
  );
}
