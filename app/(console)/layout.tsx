import { redirect } from 'next/navigation';
import { AppSidebar } from '@/components/shell/app-sidebar';
import { SandboxBanner } from '@/components/shell/sandbox-banner';
import { ThemeToggle } from '@/components/shell/theme-toggle';
import { UserMenu } from '@/components/shell/user-menu';
import { currentActor } from '@/lib/server/guard';
import { navFor } from '@/lib/server/navigation';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  const nav = navFor(actor.role).map(({ href, label, icon }) => ({ href, label, icon }));
  return (
    <div className="flex min-h-screen flex-col">
      <SandboxBanner />
      <div className="flex flex-1">
        <AppSidebar items={nav} />
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center justify-end gap-2 border-b px-4">
            <ThemeToggle />
            <UserMenu name={actor.name} email={actor.email} role={actor.role} />
          </header>
          <main id="main" className="flex-1 p-6">
            {children}
          </main>
        </div>
      </div>
    </div>
  );
}
