'use client';
// "Type an address id": for services that cannot list a wallet's addresses, a request form takes a child
// address id by hand; the server checks it with the custody service (#5) before the form offers it.
import { useId, useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

export interface AddressOption {
  id: string;
  label: string;
  address: string;
}

type LookupResult = { ok: true; data: AddressOption } | { ok: false; error: string };

export interface AddressIdLookupProps {
  walletId: string;
  /** The page's server action: checks session, permission and the id itself. */
  lookUp: (input: { walletId: string; addressId: string }) => Promise<LookupResult>;
  onFound: (address: AddressOption) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function AddressIdLookup({ walletId, lookUp, onFound }: AddressIdLookupProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit() {
    const addressId = value.trim();
    setFound(null);
    // The same check the server makes first; it saves a round trip for a typo.
    if (!UUID.test(addressId)) {
      setError('An address id is a UUID.');
      return;
    }
    setError(null);
    startTransition(async () => {
      const result = await lookUp({ walletId, addressId });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setFound(`${result.data.label} (${result.data.address}) added and selected.`);
      setValue('');
      onFound(result.data);
    });
  }

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-address-id`}>Another child address id</Label>
      <div className="flex gap-2">
        <Input
          id={`${id}-address-id`}
          value={value}
          placeholder="00000000-0000-0000-0000-000000000000"
          className="font-mono"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            // Inside a form, Enter would submit the whole request.
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
        />
        <Button type="button" variant="outline" onClick={submit} disabled={pending || value.trim() === ''}>
          {pending ? 'Checking…' : 'Use address'}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground" aria-live="polite">
          {found ??
            'This service cannot list the wallet’s addresses: the list holds those the console has seen. The id is checked with the custody service before use.'}
        </p>
      )}
    </div>
  );
}
