'use client';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '@/components/data-table/data-table';
import { createDataTableColumnHelper, type DataTableFeatures } from '@/components/data-table/features';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Badge } from '@/components/ui/badge';
import { SCOPE_WORDS, type ServiceTokenView } from '@/lib/approvals/service-tokens';
import { formatDateTime, formatUsd } from '@/lib/format';
import { TokenActions } from './token-actions';

const STATE_WORDS: Record<ServiceTokenView['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

const helper = createDataTableColumnHelper<ServiceTokenView>();

const TOKEN_COLUMNS = helper.columns([
  helper.display({
    id: 'name',
    header: 'Token',
    meta: { label: 'Token' },
    cell: ({ row }) => (
      <>
        <div className="font-medium">{row.original.name}</div>
        <code className="font-mono text-xs text-muted-foreground">{row.original.prefix}</code>
        <div className="text-xs text-muted-foreground">by {row.original.createdByEmail}</div>
      </>
    ),
  }),
  helper.display({
    id: 'state',
    header: 'State',
    meta: { label: 'State' },
    cell: ({ row }) => (
      <Badge variant={row.original.state === 'active' ? 'secondary' : 'outline'}>
        {STATE_WORDS[row.original.state]}
      </Badge>
    ),
  }),
  helper.display({
    id: 'scopes',
    header: 'May',
    meta: { label: 'May' },
    cell: ({ row }) => row.original.scopes.map((s) => SCOPE_WORDS[s]?.label ?? s).join(', '),
  }),
  helper.display({
    id: 'limits',
    header: 'Limits',
    meta: { label: 'Limits' },
    cell: ({ row }) => (
      <div className="text-sm">
        <div>{formatUsd(row.original.dailyCapUsd)} a day</div>
        <div className="text-xs text-muted-foreground">
          {row.original.minApprovals}+ approvals · {row.original.rateLimitPerMinute}/min
        </div>
        <div className="text-xs text-muted-foreground">
          {row.original.allowedCidrs.length > 0 ? row.original.allowedCidrs.join(', ') : 'any network'}
        </div>
      </div>
    ),
  }),
  helper.display({
    id: 'wallets',
    header: 'Wallets',
    meta: { label: 'Wallets' },
    cell: ({ row }) => (
      <span className="font-mono text-xs break-all">{row.original.walletIds.join(', ')}</span>
    ),
  }),
  helper.display({
    id: 'used',
    header: 'Last used',
    meta: { label: 'Last used', className: 'whitespace-nowrap' },
    cell: ({ row }) => (row.original.lastUsedAt ? formatDateTime(row.original.lastUsedAt) : 'never'),
  }),
  helper.display({
    id: 'expires',
    header: 'Expires',
    meta: { label: 'Expires', className: 'whitespace-nowrap' },
    cell: ({ row }) =>
      row.original.revokedAt
        ? `Revoked ${formatDateTime(row.original.revokedAt)}`
        : formatDateTime(row.original.expiresAt),
  }),
  helper.display({
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    meta: { label: 'Actions' },
    cell: ({ row }) => (
      <TokenActions
        tokenId={row.original.id}
        name={row.original.name}
        active={row.original.state === 'active'}
      />
    ),
  }),
]) as ColumnDef<DataTableFeatures, ServiceTokenView, unknown>[];

export function TokensTable({ tokens }: { tokens: ServiceTokenView[] }) {
  const table = useDataTable({ data: tokens, columns: TOKEN_COLUMNS, getRowId: (t) => t.id });
  if (tokens.length === 0) {
    return (
      <div className="rounded-md border p-10 text-center">
        <p className="font-medium">No API tokens yet.</p>
        <p className="mt-1 text-sm text-muted-foreground">
          Make one for each system that should request withdrawals or swaps, or read the wallets.
        </p>
      </div>
    );
  }
  return <DataTable table={table} label="API tokens" className="min-w-0" />;
}
