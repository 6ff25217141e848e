import { DataTableSkeleton } from '@/components/data-table/data-table-skeleton';

export default function AddressBookLoading() {
  return <DataTableSkeleton columnCount={7} rowCount={6} label="Loading the address book" />;
}
