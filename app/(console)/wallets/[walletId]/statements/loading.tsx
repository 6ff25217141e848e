import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';

export default function StatementsLoading() {
  return <DataTableSkeleton columnCount={6} label="Loading the statement" />;
}
