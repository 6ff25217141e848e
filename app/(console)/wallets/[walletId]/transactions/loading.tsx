import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';

export default function TransactionsLoading() {
  return <DataTableSkeleton columnCount={8} label="Loading transactions" />;
}
