import { formatDateTime } from '@/lib/format';

export interface DeletedBeneficiary {
  /** The audit entry's id. */
  id: string | number;
  name: string;
  address: string;
  deletedAt: string;
  deletedBy: string;
}

/** Beneficiaries deleted from the console: the service no longer lists them, the audit log keeps them. */
export function DeletedBeneficiaries({ entries }: { entries: DeletedBeneficiary[] }) {
  return (
    <section className="mt-8" aria-labelledby="deleted-heading">
      <h2 id="deleted-heading" className="mb-2 text-lg font-semibold">
        Deleted
      </h2>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No beneficiary of this wallet was deleted from the console.
        </p>
      ) : (
        <ul className="grid gap-1 text-sm" aria-label="Deleted beneficiaries">
          {entries.map((entry) => (
            <li key={entry.id}>
              <span className="font-medium">{entry.name}</span>{' '}
              <span className="font-mono text-xs">{entry.address}</span> · deleted{' '}
              {formatDateTime(entry.deletedAt)} by {entry.deletedBy}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
