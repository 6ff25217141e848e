'use client';
import { useTransition } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { changeUserRoleAction, disableUserAction, enableUserAction } from '@/lib/actions/users';
import { ROLES } from '@/lib/roles';

export interface UserListItem {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  mustChangePassword: boolean;
  createdAt: string;
}

export function UsersTable({ users, currentUserId }: { users: UserListItem[]; currentUserId: string }) {
  const [pending, startTransition] = useTransition();
  const run = (work: () => Promise<{ ok: boolean; error?: string }>, success: string) =>
    startTransition(async () => {
      const result = await work();
      if (result.ok) toast.success(success);
      else toast.error(result.error ?? 'The change was not saved');
    });

  if (users.length === 0) return <p className="text-muted-foreground">No users yet.</p>;
  return (
    <Table aria-label="Users">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Email</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((u) => {
          const self = u.id === currentUserId;
          return (
            <TableRow key={u.id}>
              <TableCell className="font-medium">{u.name}</TableCell>
              <TableCell className="font-mono text-xs">{u.email}</TableCell>
              <TableCell>
                <NativeSelect
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={pending || self}
                  className="w-32"
                  onChange={(e) =>
                    run(
                      () => changeUserRoleAction({ userId: u.id, role: e.target.value }),
                      `Role of ${u.email} changed`,
                    )
                  }
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </NativeSelect>
              </TableCell>
              <TableCell>
                {u.disabled ? (
                  <Badge variant="destructive">Disabled</Badge>
                ) : u.mustChangePassword ? (
                  <Badge variant="warning">Password change due</Badge>
                ) : (
                  <Badge variant="success">Active</Badge>
                )}
              </TableCell>
              <TableCell className="text-right">
                {self ? null : (
                  <Button
                    variant={u.disabled ? 'outline' : 'destructive'}
                    size="sm"
                    disabled={pending}
                    onClick={() =>
                      run(
                        () => (u.disabled ? enableUserAction : disableUserAction)({ userId: u.id }),
                        u.disabled ? `${u.email} re-enabled` : `${u.email} disabled`,
                      )
                    }
                  >
                    {u.disabled ? `Re-enable ${u.name}` : `Disable ${u.name}`}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
