'use client';
// A CSV file of address book entries: checked in the browser with the server's own reader, then every row
// becomes one request a second admin approves.
import { UploadIcon } from 'lucide-react';
import { useRef, useState, useTransition } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { importAddressBookAction } from '@/lib/actions/address-book';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import type { AddressBookCsv } from '@/lib/validation/address-book';

/** The CSV reader checks each row with the entry form's schema: it loads (with zod) at the first text read. */
const loadCsvReader = () => import('@/lib/validation/address-book').then((m) => m.parseAddressBookCsv);

export interface ImportDialogProps {
  walletId: string;
  defaultChain: string;
  isEvmCompatible: boolean;
}

export function ImportDialog({ walletId, defaultChain, isEvmCompatible }: ImportDialogProps) {
  const [open, setOpen] = useState(false);
  const [csv, setCsv] = useState('');
  const [checked, setChecked] = useState<AddressBookCsv | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();

  // The text whose check is shown: a check that comes back after newer text was read is dropped.
  const latestText = useRef('');
  const read = (text: string) => {
    setCsv(text);
    setError(null);
    latestText.current = text;
    if (!text.trim()) {
      setChecked(null);
      return;
    }
    loadCsvReader().then(
      (parseAddressBookCsv) => {
        if (latestText.current === text)
          setChecked(parseAddressBookCsv(text, { chain: { isEvmCompatible }, defaultChain }));
      },
      () => setError('The CSV could not be checked: the page lost its connection. Paste or choose it again.'),
    );
  };

  const submit = () =>
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => importAddressBookAction({ walletId, csv }));
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setRequested(result.data);
    });

  const change = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setCsv('');
      setChecked(null);
      setRequested(null);
      setError(null);
    }
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <UploadIcon aria-hidden /> Import CSV
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Import address book entries</DialogTitle>
          <DialogDescription>
            A header line naming the columns, then one entry per line: name,address,chain,tags,notes (chain,
            tags and notes optional; tags separated by semicolons). An entry whose address is already in the
            book is changed. The whole file is one request a second admin approves.
          </DialogDescription>
        </DialogHeader>
        {requested ? (
          <RequestedChangeNotice change={requested} />
        ) : (
          <div className="grid gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor="book-csv-file">CSV file</Label>
              <input
                id="book-csv-file"
                type="file"
                accept=".csv,text/csv"
                className="text-sm"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  if (file) read(await file.text());
                }}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="book-csv-text">Or paste CSV</Label>
              <Textarea
                id="book-csv-text"
                className="min-h-24 font-mono text-xs"
                value={csv}
                onChange={(e) => read(e.target.value)}
              />
            </div>
            <div aria-live="polite" className="text-sm">
              {checked ? (
                checked.errors.length > 0 ? (
                  <ul aria-label="CSV errors" className="grid gap-1 text-destructive">
                    {checked.errors.map((e) => (
                      <li key={`${e.line}-${e.message}`}>
                        Line {e.line}: {e.message}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p>
                    {checked.entries.length} {checked.entries.length === 1 ? 'entry' : 'entries'} ready
                    {checked.skipped > 0
                      ? `; ${checked.skipped} of the service's own entries left out (they stay at the service)`
                      : ''}
                    .
                  </p>
                )
              ) : null}
            </div>
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <DialogFooter>
              <Button
                type="button"
                onClick={submit}
                disabled={pending || !checked || checked.errors.length > 0}
              >
                {pending ? 'Requesting…' : 'Request import'}
              </Button>
            </DialogFooter>
          </div>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
