// A wallet's address book as CSV: the columns the import reads back, plus where each entry comes from.

import { loadAddressBook } from '@/lib/server/address-book';
import { csvRow } from '@/lib/server/csv';
import { WALLET_NOT_CONNECTED } from '@/lib/server/errors';
import { audit } from '@/lib/server/guard';
import { withPermission } from '@/lib/server/route';
import { getDb } from '@/lib/server/runtime';
import { ADDRESS_BOOK_CSV_COLUMNS } from '@/lib/validation/address-book';

export const dynamic = 'force-dynamic';

export const GET = withPermission('read', async ({ params, actor }) => {
  const walletId = String(params.walletId ?? '');
  const book = await loadAddressBook(await getDb(), walletId, actor.requestId);
  if (!book) return Response.json({ statusCode: 404, message: WALLET_NOT_CONNECTED }, { status: 404 });
  const body = [
    csvRow(ADDRESS_BOOK_CSV_COLUMNS),
    ...book.entries.map((e) =>
      csvRow([
        e.name,
        e.address,
        e.chain,
        e.tags.join(';'),
        e.notes,
        e.source,
        e.since ?? '',
        e.usableFrom ?? '',
      ]),
    ),
  ].join('');
  await audit(actor, 'addressBook.export', 'success', {
    target: walletId,
    input: { rows: book.entries.length },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="address-book-${walletId}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
