'use client';
import { useState, useTransition } from 'react';
import { toast } from 'sonner';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import {
  changeUserRoleAction,
  disableUserAction,
  enableUserAction,
  type RequestedChange,
} from '@/lib/actions/users';
import { ROLES } from '@/lib/roles';
import { EndSessionsButton } from './end-sessions-button';

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
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const run = (
    work: () => Promise<
      { ok: true; data: { email: string } | RequestedChange } | { ok: false; error: string }
    >,
    success: string,
  ) =>
    startTransition(async () => {
      const result = await work();
      if (!result.ok) {
        toast.error(result.error ?? 'The change was not saved');
        return;
      }
      if ('kind' in result.data) {
        // Role changes and re-enabling wait for a second admin.
        setRequested(result.data);
        toast.success('Waiting for a second admin');
      } else toast.success(success);
    });

  if (users.length === 0) return <p className="text-muted-foreground">No users yet.</p>;
  return (
    <div className="grid gap-4">
      {requested ? <RequestedChangeNotice change={requested} /> : null}
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
                        `Role change of ${u.email} requested`,
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
                <TableCell className="space-x-2 text-right">
                  {u.disabled ? null : <EndSessionsButton userId={u.id} name={u.name} email={u.email} />}
                  {self ? null : (
                    <Button
                      variant={u.disabled ? 'outline' : 'destructive'}
                      size="sm"
                      disabled={pending}
                      onClick={() =>
                        run(
                          () => (u.disabled ? enableUserAction : disableUserAction)({ userId: u.id }),
                          u.disabled ? `Re-enabling ${u.email} requested` : `${u.email} disabled`,
                        )
                      }
                    >
                      {u.disabled ? `Request to re-enable ${u.name}` : `Disable ${u.name}`}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
