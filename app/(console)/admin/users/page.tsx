import type { Metadata } from 'next';
import { AddUserDialog } from '@/components/admin/users/add-user-dialog';
import { UsersTable } from '@/components/admin/users/users-table';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { adminQuorum, listUsers } from '@/lib/server/users';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const actor = await requirePage('users.manage');
  const db = await getDb();
  const [rows, quorum] = await Promise.all([listUsers(db), adminQuorum(db)]);
  const users = rows.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    disabled: Boolean(u.disabledAt),
    mustChangePassword: u.mustChangePassword,
    createdAt: u.createdAt.toISOString(),
  }));
  return (
    <>
      <PageHeader
        title="Users"
        description="Who can sign in, and with which role. Adding a user, changing a role and re-enabling a user wait for a second admin; disabling is immediate."
        actions={<AddUserDialog mayBootstrap={quorum.mayBootstrap} />}
      />
      <UsersTable users={users} currentUserId={actor.id} />
    </>
  );
}
