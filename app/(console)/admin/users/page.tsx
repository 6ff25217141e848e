import type { Metadata } from 'next';
import { AddUserDialog } from '@/components/admin/users/add-user-dialog';
import { UsersTable } from '@/components/admin/users/users-table';
import { PageHeader } from '@/components/shell/page-header';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';
import { listUsers } from '@/lib/server/users';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const actor = await requirePage('users.manage');
  const db = await getDb();
  const rows = await listUsers(db);
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
        description="Who can sign in, and with which role. Adding a user, changing a role, re-enabling a user and disabling an admin wait for a second admin; disabling anyone else is immediate."
        actions={<AddUserDialog />}
      />
      <UsersTable users={users} currentUserId={actor.id} />
    </>
  );
}
