import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { SearchParams } from 'nuqs/server';
import { type AddressBookRow, AddressBookTable } from '@/components/address-book/address-book-table';
import { loadAddressBookSearchParams } from '@/components/address-book/search-params';
import { PageHeader } from '@/components/shell/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { describeDuration } from '@/lib/approvals/address-book';
import { loadAddressBook } from '@/lib/server/address-book';
import { describeFailure } from '@/lib/server/errors';
import { requirePage } from '@/lib/server/page-guard';
import { can } from '@/lib/server/permissions';
import { getDb } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Address book' };

export default async function AddressBookPage({
  params,
  searchParams,
}: {
  params: Promise<{ walletId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const actor = await requirePage('read');
  const { walletId } = await params;
  const filters = loadAddressBookSearchParams(await searchParams);
  let book: Awaited<ReturnType<typeof loadAddressBook>>;
  try {
    book = await loadAddressBook(await getDb(), walletId, actor.requestId);
  } catch (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not read the address book</AlertTitle>
        <AlertDescription>{describeFailure(error, actor.requestId, 'address book').message}</AlertDescription>
      </Alert>
    );
  }
  if (!book) notFound();
  const now = Date.now();
  const q = filters.q.trim().toLowerCase();
  const rows: AddressBookRow[] = book.entries
    .filter((e) => !filters.source || e.source === filters.source)
    .filter(
      (e) => !q || [e.name, e.address, e.notes, ...e.tags].some((text) => text.toLowerCase().includes(q)),
    )
    .map((e) => ({ ...e, coolingOff: e.usableFrom !== null && new Date(e.usableFrom).getTime() > now }));
  return (
    <>
      <PageHeader
        title="Address book"
        description={`Named counterparties of this wallet. The console's own entries are added and changed through a second admin's approval, and can receive money ${describeDuration(book.coolingOffSeconds * 1000)} after approval; whitelisted addresses and beneficiaries are read from the custody service.`}
      />
      {book.unavailable.length > 0 ? (
        <Alert className="mb-4">
          <AlertTitle>Part of the book could not be read</AlertTitle>
          <AlertDescription>
            The custody service did not list its {book.unavailable.join(' or ')}.
          </AlertDescription>
        </Alert>
      ) : null}
      <AddressBookTable
        walletId={walletId}
        chain={book.chain}
        rows={rows}
        total={book.entries.length}
        canEdit={can(actor.role, 'addressBookSave.request')}
      />
    </>
  );
}
