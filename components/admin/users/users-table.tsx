'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { useRouter } from 'next/navigation';
import { useMemo, useState, useTransition } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import {
  changeUserRoleAction,
  disableUserAction,
  enableUserAction,
  type RequestedChange,
} from '@/lib/actions/users';
import { ROLES } from '@/lib/roles';
import { EndSessionsButton } from './end-sessions-button';
import { ResendInvitationButton } from './resend-invitation-button';
import { ResetLinkDialog } from './reset-link-dialog';

export interface UserListItem {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  mustChangePassword: boolean;
  /** The account's latest invitation or reset link (its state, never the link); null: none was ever sent. */
  invitation: {
    purpose: 'invitation' | 'reset';
    state: 'open' | 'expired' | 'accepted';
    notSent: boolean;
  } | null;
  createdAt: string;
}

/** A link the person has not used yet: the account waits for them. */
const waiting = (u: UserListItem) => Boolean(u.invitation && u.invitation.state !== 'accepted');

function statusBadge(u: UserListItem) {
  if (u.disabled) return <Badge variant="destructive">Disabled</Badge>;
  const link = u.invitation;
  if (link && waiting(u)) {
    const what = link.purpose === 'reset' ? 'Reset link' : 'Invitation';
    if (link.notSent) return <Badge variant="destructive">{what} not sent</Badge>;
    if (link.state === 'expired') return <Badge variant="warning">{what} expired</Badge>;
    return <Badge variant="warning">{link.purpose === 'reset' ? 'Reset link sent' : 'Invited'}</Badge>;
  }
  if (u.mustChangePassword) return <Badge variant="warning">Password change due</Badge>;
  return <Badge variant="success">Active</Badge>;
}

type ChangeResult = { ok: true; data: { email: string } | RequestedChange } | { ok: false; error: string };
type RunChange = (work: () => Promise<ChangeResult>, success: string) => void;

const helper = createDataTableColumnHelper<UserListItem>();

function userColumns(
  currentUserId: string,
  pending: boolean,
  run: RunChange,
  invitationProblem: string | null,
  refresh: () => void,
): ColumnDef<DataTableFeatures, UserListItem, unknown>[] {
  return helper.columns([
    helper.display({
      id: 'name',
      header: 'Name',
      meta: { label: 'Name', className: 'font-medium' },
      cell: ({ row }) => row.original.name,
    }),
    helper.display({
      id: 'email',
      header: 'Email',
      meta: { label: 'Email', className: 'font-mono text-xs' },
      cell: ({ row }) => row.original.email,
    }),
    helper.display({
      id: 'role',
      header: 'Role',
      meta: { label: 'Role' },
      cell: ({ row }) => {
        const u = row.original;
        return (
          <NativeSelect
            aria-label={`Role of ${u.email}`}
            value={u.role}
            disabled={pending || u.id === currentUserId}
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
        );
      },
    }),
    helper.display({
      id: 'status',
      header: 'Status',
      meta: { label: 'Status' },
      cell: ({ row }) => statusBadge(row.original),
    }),
    helper.display({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { label: 'Actions', className: 'space-x-2 text-right' },
      cell: ({ row }) => {
        const u = row.original;
        return (
          <>
            {u.disabled ? null : <EndSessionsButton userId={u.id} name={u.name} email={u.email} />}
            {!u.disabled && waiting(u) ? (
              <ResendInvitationButton
                userId={u.id}
                name={u.name}
                label={
                  u.invitation?.purpose === 'reset'
                    ? 'Send the reset link again'
                    : 'Send the invitation again'
                }
                onSent={refresh}
              />
            ) : null}
            {u.disabled ||
            u.id === currentUserId ||
            (waiting(u) && u.invitation?.purpose === 'invitation') ? null : (
              <ResetLinkDialog userId={u.id} name={u.name} email={u.email} problem={invitationProblem} />
            )}
            {u.id === currentUserId ? null : (
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
                {u.disabled
                  ? `Request to re-enable ${u.name}`
                  : u.role === 'admin'
                    ? `Request to disable ${u.name}`
                    : `Disable ${u.name}`}
              </Button>
            )}
          </>
        );
      },
    }),
  ]) as ColumnDef<DataTableFeatures, UserListItem, unknown>[];
}

export interface UsersTableProps {
  users: UserListItem[];
  currentUserId: string;
  /** Why invitations and reset links cannot leave this console (no mail server), if so. */
  invitationProblem: string | null;
}

export function UsersTable({ users, currentUserId, invitationProblem }: UsersTableProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  // Role changes, disabling and re-enabling ask for the second factor again when the last check is stale.
  const { withStepUp, dialog } = useStepUp();
  const columns = useMemo(() => {
    const run: RunChange = (work, success) =>
      startTransition(async () => {
        const result = await withStepUp(work);
        if (!result.ok) {
          toast.error(result.error ?? 'The change was not saved');
          return;
        }
        if ('kind' in result.data) {
          // Role changes, re-enabling and disabling an admin wait for a second admin.
          setRequested(result.data);
          toast.success('Waiting for a second admin');
        } else toast.success(success);
      });
    return userColumns(currentUserId, pending, run, invitationProblem, () => router.refresh());
  }, [currentUserId, pending, invitationProblem, router, withStepUp]);
  const table = useDataTable({ data: users, columns, getRowId: (u) => u.id });

  if (users.length === 0) return <p className="text-muted-foreground">No users yet.</p>;
  return (
    // Block layout, not grid: a grid item would grow to the table's width on a phone.
    <div className="min-w-0 space-y-4">
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      <DataTable table={table} label="Users" />
      {dialog}
    </div>
  );
}
