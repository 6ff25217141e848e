'use client';
// Adding or changing an entry of a wallet's address book: the change becomes a request a second admin approves.
import { PencilIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { requestAddressBookEntryAction } from '@/lib/actions/address-book';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import type { AddressBookEntryView } from '@/lib/approvals/address-book';
import type { AddressBookEntryValues } from '@/lib/validation/address-book';

const loadAddressBookEntrySchema = () =>
  import('@/lib/validation/address-book').then((m) => m.addressBookEntrySchema);

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
  const { form, onSubmit, pending, banner, reset } = useActionForm(
    (values) => stepUp.withStepUp(() => requestAddressBookEntryAction(values)),
    {
      schema: loadAddressBookEntrySchema,
      defaultValues: defaults,
      fields: FIELDS,
      onSuccess: (data) => setRequested(data),
    },
  );
  const { errors } = form.formState;
  const id = (name: string) => `${entry?.id ?? 'new'}-book-${name}`;

  const change = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setRequested(null);
      reset(defaults);
    }
  };

  const title = entry ? `Change ${entry.name}` : 'Add an address book entry';
  const description =
    'A second admin approves the change. A new address can receive money once its cooling-off has passed.';
  return (
    <FormDialog
      open={open}
      onOpenChange={change}
      trigger={
        entry ? (
          <Button variant="ghost" size="sm" aria-label={`Change ${entry.name}`}>
            <PencilIcon aria-hidden /> Change
          </Button>
        ) : (
          <Button>
            <PlusIcon aria-hidden /> Add entry
          </Button>
        )
      }
      title={title}
      description={description}
      banner={banner}
      onSubmit={onSubmit}
      formLabel="Address book entry"
      formClassName="gap-3"
      submitLabel={entry ? 'Request change' : 'Request entry'}
      pendingLabel="Requesting…"
      pending={pending}
      done={requested ? { title, description, content: <RequestedChangeNotice change={requested} /> } : null}
      after={stepUp.dialog}
    >
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
    </FormDialog>
  );
}
