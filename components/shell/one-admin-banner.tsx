import { UsersIcon } from 'lucide-react';
import { adminQuorum } from '@/lib/server/approvals/admin-quorum';
import { currentDb } from '@/lib/server/services';

/**
 * Shown on every page while the console has fewer independent admins than the approval policy needs:
 * configuration changes wait for other admins, and none can approve them yet. The console never adds an admin
 * alone; the first admins are added on the server.
 */
export async function OneAdminBanner({ role }: { role: string }) {
  const quorum = await adminQuorum(await currentDb()).catch(() => null);
  if (!quorum?.short) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-2 bg-warning px-4 py-1.5 text-sm font-medium text-warning-foreground"
    >
      <UsersIcon className="size-4" aria-hidden />
      {quorum.independent === 1 ? 'One independent admin' : `${quorum.independent} independent admins`} of the{' '}
      {quorum.needed} the approval policy needs: configuration changes cannot be approved yet.
      {role === 'admin' ? (
        <span>
          Add an admin on the server: <code>npm run users -- add --role admin --email …</code>
        </span>
      ) : null}
    </div>
  );
}
