'use client';
import { useQueryStates } from 'nuqs';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { serializeStatementSearch, statementSearchParsers } from '@/lib/validation/statements';

export interface StatementControlsProps {
  walletId: string;
  symbols: string[];
  /** The period and asset shown (defaults filled in), for the inputs and the download link. */
  from: string;
  to: string;
  asset: string;
}

/**
 * Period and asset in the URL (the server page reads the same parsers), a CSV download of what is shown and
 * the browser's print (to paper or PDF).
 */
export function StatementControls({ walletId, symbols, from, to, asset }: StatementControlsProps) {
  const [, setSearch] = useQueryStates(statementSearchParsers, { shallow: false, history: 'push' });
  const [draft, setDraft] = useState({ from, to, asset });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void setSearch(draft);
  };
  const csvHref = `/api/wallets/${encodeURIComponent(walletId)}/statements/export.csv${serializeStatementSearch({ from, to, asset })}`;
  return (
    <div className="grid min-w-0 gap-3 print:hidden">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Statement period">
        <Field id="statement-from" label="First day (UTC)">
          <Input
            id="statement-from"
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            required
          />
        </Field>
        <Field id="statement-to" label="Last day (UTC)">
          <Input
            id="statement-to"
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            required
          />
        </Field>
        <Field id="statement-asset" label="Asset">
          <NativeSelect
            id="statement-asset"
            value={draft.asset}
            onChange={(e) => setDraft({ ...draft, asset: e.target.value })}
          >
            {symbols.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit">Show statement</Button>
      </form>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href={csvHref} download>
            Download CSV
          </a>
        </Button>
        <Button type="button" variant="outline" onClick={() => window.print()}>
          Print
        </Button>
      </div>
    </div>
  );
}
