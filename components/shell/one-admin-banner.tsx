import { UsersIcon } from 'lucide-react';
import Link from 'next/link';
import { currentDb } from '@/lib/server/services';
import { adminQuorum } from '@/lib/server/users';

/**
 * Shown on every page while only one admin can sign in: configuration changes need a second admin, so until
 * there is one nothing can be approved. The one admin may add a second admin alone, once.
 */
export async function OneAdminBanner({ role }: { role: string }) {
  const quorum = await adminQuorum(await currentDb()).catch(() => null);
  if (!quorum?.onlyOneAdmin) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-2 bg-warning px-4 py-1.5 text-sm font-medium text-warning-foreground"
    >
      <UsersIcon className="size-4" aria-hidden />
      Only one admin: configuration changes wait for a second admin, and none can approve them yet.
      {role === 'admin' && quorum.mayBootstrap ? (
        <Link href="/admin/users" className="underline">
          Add a second admin (once, without approval)
        </Link>
      ) : null}
    </div>
  );
}
