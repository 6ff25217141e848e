import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';

export default function PayoutSchedulesLoading() {
  return (
    <DataTableSkeleton
      columnCount={6}
      rowCount={3}
      withToolbar={false}
      label="Loading the payout schedules"
    />
  );
}
