import type { Metadata } from 'next';
import { AddUserDialog } from '@/components/admin/users/add-user-dialog';
import { UsersTable } from '@/components/admin/users/users-table';
import { PageHeader } from '@/components/shell/page-header';
import { invitationProblem, latestInvitations } from '@/lib/server/invitations';
import { requirePage } from '@/lib/server/page-guard';
import { getRuntime } from '@/lib/server/runtime';
import { listUsers } from '@/lib/server/users';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const actor = await requirePage('users.manage');
  const runtime = await getRuntime();
  const db = runtime.database.db;
  const [rows, links] = await Promise.all([listUsers(db), latestInvitations(db)]);
  // Each account's latest link by its state only: the link itself is in the person's mailbox, never here.
  const users = rows.map((u) => {
    const link = links.get(u.id);
    return {
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      disabled: Boolean(u.disabledAt),
      mustChangePassword: u.mustChangePassword,
      invitation: link
        ? { purpose: link.purpose, state: link.state, notSent: Boolean(link.deliveryError) }
        : null,
      createdAt: u.createdAt.toISOString(),
    };
  });
  const problem = invitationProblem(runtime.config);
  return (
    <>
      <PageHeader
        title="Users"
        description="Who can sign in, and with which role. Adding a user, a reset link, changing a role, re-enabling a user and disabling an admin wait for a second admin; disabling anyone else is immediate. New users and reset links get an email at the person’s own address, where they choose their own password."
        actions={<AddUserDialog invitationProblem={problem} />}
      />
      <UsersTable users={users} currentUserId={actor.id} invitationProblem={problem} />
    </>
  );
}
