'use client';
// Adding or changing an entry of a wallet's address book: the change becomes a request a second admin approves.
import { PencilIcon, PlusIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
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
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { requestAddressBookEntryAction } from '@/lib/actions/address-book';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import type { AddressBookEntryView } from '@/lib/approvals/address-book';
import type { AddressBookEntryValues } from '@/lib/validation/address-book';

const addressBookEntryResolver = lazyZodResolver(() =>
  import('@/lib/validation/address-book').then((m) => m.addressBookEntrySchema),
);

const FIELDS = ['name', 'address', 'chain', 'tags', 'notes'] as const;

export interface EntryDialogProps {
  walletId: string;
  defaultChain: string;
  /** A console entry to change; absent: a new entry. */
  entry?: AddressBookEntryView;
}

export function EntryDialog({ walletId, defaultChain, entry }: EntryDialogProps) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const defaults: AddressBookEntryValues = {
    walletId,
    entryId: entry?.id ?? '',
    name: entry?.name ?? '',
    address: entry?.address ?? '',
    chain: entry?.chain ?? defaultChain,
    tags: entry?.tags.join(', ') ?? '',
    notes: entry?.notes ?? '',
  };
  const form = useForm<AddressBookEntryValues>({
    resolver: addressBookEntryResolver,
    defaultValues: defaults,
  });
  const { errors } = form.formState;
  const id = (name: string) => `${entry?.id ?? 'new'}-book-${name}`;

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => requestAddressBookEntryAction(values));
      if (!result.ok) {
        setError(result.error);
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          const name = FIELDS.find((f) => f === field);
          if (name) form.setError(name, { message });
        }
        return;
      }
      setRequested(result.data);
    });
  });

  const change = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setRequested(null);
      setError(null);
      form.reset(defaults);
    }
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        {entry ? (
          <Button variant="ghost" size="sm" aria-label={`Change ${entry.name}`}>
            <PencilIcon aria-hidden /> Change
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden /> Add entry
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{entry ? `Change ${entry.name}` : 'Add an address book entry'}</DialogTitle>
          <DialogDescription>
            A second admin approves the change. A new address can receive money once its cooling-off has
            passed.
          </DialogDescription>
        </DialogHeader>
        {requested ? (
          <RequestedChangeNotice change={requested} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Address book entry">
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <Field id={id('name')} label="Name" error={errors.name?.message}>
              <Input id={id('name')} autoComplete="off" {...form.register('name')} />
            </Field>
            <Field id={id('address')} label="Address" error={errors.address?.message}>
              <Input
                id={id('address')}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                {...form.register('address')}
              />
            </Field>
            <Field id={id('chain')} label="Chain" error={errors.chain?.message}>
              <Input id={id('chain')} autoComplete="off" {...form.register('chain')} />
            </Field>
            <Field id={id('tags')} label="Tags" hint="Separated by commas" error={errors.tags?.message}>
              <Input id={id('tags')} autoComplete="off" {...form.register('tags')} />
            </Field>
            <Field id={id('notes')} label="Notes" error={errors.notes?.message}>
              <Textarea id={id('notes')} {...form.register('notes')} />
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={pending}>
                {pending ? 'Requesting…' : entry ? 'Request change' : 'Request entry'}
              </Button>
            </DialogFooter>
          </form>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
