'use client';
// Typed-data signature request: a permit or authorization form, or the raw EIP-712 JSON; then the review.
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import {
  createTypedDataRequestAction,
  lookUpSigningAddressAction,
  previewTypedDataAction,
} from '@/app/(console)/wallets/[walletId]/signing/actions';
import { ReviewStep } from '@/components/approvals/review-step';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import type { TypedDataReview } from '@/lib/approvals/signing';
import {
  buildPermit,
  buildTransferWithAuthorization,
  parseTypedDataText,
  type TypedDataCheck,
  type TypedDataDocument,
} from '@/lib/validation/typed-data';
import { TypedDataReviewPanel } from './typed-data-review-panel';

export interface TypedDataFormProps {
  walletId: string;
  addresses: Array<{ id: string; label: string; address: string }>;
  /** `known`: the service cannot list addresses; the form also takes an address id typed by hand. */
  addressSource?: 'service' | 'known';
  tokens: Array<{ address: string; symbol: string; name: string; decimals: number }>;
  chainId: number | null;
}

type Mode = 'permit' | 'transferWithAuthorization' | 'json';
const OTHER = 'other';

function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function unixSeconds(local: string): string {
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : '';
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function TypedDataForm({
  walletId,
  addresses: listed,
  tokens,
  chainId,
  addressSource = 'service',
}: TypedDataFormProps) {
  const router = useRouter();
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typed, setTyped] = useState<AddressOption[]>([]);
  const addresses = [...listed, ...typed.filter((t) => !listed.some((a) => a.id === t.id))];
  const [mode, setMode] = useState<Mode>('permit');
  const [addressId, setAddressId] = useState('');
  const first = tokens[0];
  const [token, setToken] = useState(first?.address ?? OTHER);
  const [domain, setDomain] = useState({
    name: first?.name ?? '',
    version: '1',
    chainId: chainId === null ? '' : String(chainId),
    verifyingContract: first?.address ?? '',
  });
  const [fields, setFields] = useState(() => ({
    spender: '',
    to: '',
    value: '',
    nonce: '0',
    authNonce: randomNonce(),
    deadline: localInput(new Date(Date.now() + 7 * 24 * 3600 * 1000)),
    validAfter: localInput(new Date()),
    validBefore: localInput(new Date(Date.now() + 24 * 3600 * 1000)),
  }));
  const [json, setJson] = useState({ domain: '', types: '', message: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [review, setReview] = useState<{ review: TypedDataReview; requiredApprovals: number } | null>(null);
  const [pending, startTransition] = useTransition();

  const signer = addresses.find((a) => a.id === addressId)?.address ?? '';
  const decimals = tokens.find((t) => t.address === token)?.decimals ?? 0;

  const touched = () => {
    setReview(null);
    setFormError(null);
  };

  function build(): TypedDataCheck {
    const tokenDomain = { ...domain, decimals };
    if (mode === 'permit')
      return buildPermit({
        ...tokenDomain,
        owner: signer,
        spender: fields.spender,
        value: fields.value,
        nonce: fields.nonce,
        deadline: unixSeconds(fields.deadline),
      });
    if (mode === 'transferWithAuthorization')
      return buildTransferWithAuthorization({
        ...tokenDomain,
        from: signer,
        to: fields.to,
        value: fields.value,
        validAfter: unixSeconds(fields.validAfter),
        validBefore: unixSeconds(fields.validBefore),
        nonce: fields.authNonce,
      });
    return parseTypedDataText(json);
  }

  function validate(): TypedDataDocument | null {
    const errs: Record<string, string> = {};
    if (!addressId) errs.addressId = 'Choose the signing address.';
    const check = build();
    if (!check.ok) {
      for (const [key, message] of Object.entries(check.fieldErrors)) {
        // Owner and from are the signing address: their error belongs to the address picker.
        const at = key === 'owner' || key === 'from' ? 'addressId' : key;
        if (at !== 'addressId' || !errs.addressId) errs[at] = message;
      }
      if (Object.keys(errs).length === 0) setFormError(check.error);
    }
    setErrors(errs);
    return Object.keys(errs).length === 0 && check.ok ? check.value : null;
  }

  function input(doc: TypedDataDocument) {
    return {
      walletId,
      addressId,
      domain: doc.domain,
      types: doc.types,
      message: doc.message,
      primaryType: doc.primaryType,
    };
  }

  function toReview() {
    setFormError(null);
    const doc = validate();
    if (!doc) return;
    startTransition(async () => {
      const result = await previewTypedDataAction(input(doc));
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setFormError(result.error);
        return;
      }
      setReview(result.data);
    });
  }

  function create() {
    const doc = validate();
    if (!doc) return;
    startTransition(async () => {
      const result = await createTypedDataRequestAction(input(doc));
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setFormError(result.error);
        setReview(null);
        return;
      }
      router.push(`/approvals/${result.data.id}`);
    });
  }

  function editAsJson() {
    const check = build();
    if (check.ok) {
      const { domain: d, types, message } = check.value;
      setJson({
        domain: JSON.stringify(d, null, 2),
        types: JSON.stringify(types, null, 2),
        message: JSON.stringify(message, null, 2),
      });
    }
    setMode('json');
    touched();
  }

  const err = (id: string) => ({
    'aria-invalid': errors[id] ? true : undefined,
    'aria-describedby': errors[id] ? `${id}-error` : undefined,
  });
  const tokenFields = (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="token" label="Token">
        <NativeSelect
          id="token"
          value={token}
          onChange={(e) => {
            const picked = tokens.find((t) => t.address === e.target.value);
            setToken(e.target.value);
            if (picked) setDomain((d) => ({ ...d, name: picked.name, verifyingContract: picked.address }));
            touched();
          }}
        >
          {tokens.map((t) => (
            <option key={t.address} value={t.address}>
              {t.symbol} ({t.name})
            </option>
          ))}
          <option value={OTHER}>Another token (value in base units)</option>
        </NativeSelect>
      </Field>
      <Field
        id="verifyingContract"
        label="Token contract (verifying contract)"
        error={errors.verifyingContract}
      >
        <Input
          id="verifyingContract"
          className="font-mono"
          value={domain.verifyingContract}
          readOnly={token !== OTHER}
          {...err('verifyingContract')}
          onChange={(e) => {
            setDomain((d) => ({ ...d, verifyingContract: e.target.value }));
            touched();
          }}
        />
      </Field>
      <Field id="name" label="Domain name" error={errors.name}>
        <Input
          id="name"
          value={domain.name}
          {...err('name')}
          onChange={(e) => {
            setDomain((d) => ({ ...d, name: e.target.value }));
            touched();
          }}
        />
      </Field>
      <Field id="version" label="Domain version" error={errors.version}>
        <Input
          id="version"
          value={domain.version}
          {...err('version')}
          onChange={(e) => {
            setDomain((d) => ({ ...d, version: e.target.value }));
            touched();
          }}
        />
      </Field>
      <Field id="chainId" label="Chain id" error={errors.chainId}>
        <Input
          id="chainId"
          inputMode="numeric"
          value={domain.chainId}
          {...err('chainId')}
          onChange={(e) => {
            setDomain((d) => ({ ...d, chainId: e.target.value }));
            touched();
          }}
        />
      </Field>
    </div>
  );

  const setField = (key: keyof typeof fields) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setFields((f) => ({ ...f, [key]: e.target.value }));
    touched();
  };

  return (
    <div className="grid gap-4">
      <form
        aria-label="Typed-data signature"
        className="grid max-w-3xl gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          toReview();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="addressId" label="Signing address" error={errors.addressId}>
            <NativeSelect
              id="addressId"
              value={addressId}
              {...err('addressId')}
              onChange={(e) => {
                setAddressId(e.target.value);
                setErrors(({ addressId: _, ...rest }) => rest);
                touched();
              }}
            >
              <option value="">Choose an address</option>
              {addresses.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {addressSource === 'known' ? (
            <div className="sm:col-span-2">
              <AddressIdLookup
                walletId={walletId}
                lookUp={lookUpSigningAddressAction}
                onFound={(found) => {
                  setTyped((list) => (list.some((a) => a.id === found.id) ? list : [...list, found]));
                  setAddressId(found.id);
                  setErrors(({ addressId: _, ...rest }) => rest);
                  touched();
                }}
              />
            </div>
          ) : null}
          <Field id="kind" label="Kind">
            <NativeSelect
              id="kind"
              value={mode}
              onChange={(e) => {
                setMode(e.target.value as Mode);
                setErrors({});
                touched();
              }}
            >
              <option value="permit">EIP-2612 Permit</option>
              <option value="transferWithAuthorization">EIP-3009 TransferWithAuthorization</option>
              <option value="json">Any typed data (JSON editor)</option>
            </NativeSelect>
          </Field>
        </div>
        {signer ? (
          <p className="text-sm text-muted-foreground">
            {mode === 'transferWithAuthorization' ? 'From' : 'Owner'}:{' '}
            <span className="font-mono break-all">{signer}</span> (the signing address)
          </p>
        ) : null}

        {mode !== 'json' ? tokenFields : null}

        {mode === 'permit' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="spender" label="Spender" error={errors.spender}>
              <Input
                id="spender"
                className="font-mono"
                value={fields.spender}
                {...err('spender')}
                onChange={setField('spender')}
              />
            </Field>
            <Field
              id="value"
              label={token === OTHER ? 'Value (base units)' : 'Value (token units)'}
              error={errors.value}
              hint='Type "max" for an unlimited allowance.'
            >
              <Input
                id="value"
                inputMode="decimal"
                value={fields.value}
                aria-invalid={errors.value ? true : undefined}
                aria-describedby={errors.value ? 'value-error' : 'value-hint'}
                onChange={setField('value')}
              />
            </Field>
            <Field
              id="nonce"
              label="Nonce"
              error={errors.nonce}
              hint="The token's permit nonce for the owner."
            >
              <Input
                id="nonce"
                inputMode="numeric"
                value={fields.nonce}
                aria-invalid={errors.nonce ? true : undefined}
                aria-describedby={errors.nonce ? 'nonce-error' : 'nonce-hint'}
                onChange={setField('nonce')}
              />
            </Field>
            <Field id="deadline" label="Deadline" error={errors.deadline}>
              <Input
                id="deadline"
                type="datetime-local"
                value={fields.deadline}
                {...err('deadline')}
                onChange={setField('deadline')}
              />
            </Field>
          </div>
        ) : null}

        {mode === 'transferWithAuthorization' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="to" label="To" error={errors.to}>
              <Input
                id="to"
                className="font-mono"
                value={fields.to}
                {...err('to')}
                onChange={setField('to')}
              />
            </Field>
            <Field
              id="value"
              label={token === OTHER ? 'Value (base units)' : 'Value (token units)'}
              error={errors.value}
            >
              <Input
                id="value"
                inputMode="decimal"
                value={fields.value}
                {...err('value')}
                onChange={setField('value')}
              />
            </Field>
            <Field id="validAfter" label="Valid after" error={errors.validAfter}>
              <Input
                id="validAfter"
                type="datetime-local"
                value={fields.validAfter}
                {...err('validAfter')}
                onChange={setField('validAfter')}
              />
            </Field>
            <Field id="validBefore" label="Valid before" error={errors.validBefore}>
              <Input
                id="validBefore"
                type="datetime-local"
                value={fields.validBefore}
                {...err('validBefore')}
                onChange={setField('validBefore')}
              />
            </Field>
            <Field id="authNonce" label="Nonce (32 bytes)" error={errors.nonce}>
              <Input
                id="authNonce"
                className="font-mono"
                value={fields.authNonce}
                aria-invalid={errors.nonce ? true : undefined}
                aria-describedby={errors.nonce ? 'authNonce-error' : undefined}
                onChange={setField('authNonce')}
              />
            </Field>
          </div>
        ) : null}

        {mode === 'json' ? (
          <div className="grid gap-4">
            {(['domain', 'types', 'message'] as const).map((key) => (
              <Field
                key={key}
                id={`json-${key}`}
                label={
                  key === 'domain' ? 'Domain (JSON)' : key === 'types' ? 'Types (JSON)' : 'Message (JSON)'
                }
                error={errors[key]}
              >
                <textarea
                  id={`json-${key}`}
                  className="min-h-32 rounded-md border border-input bg-background px-3 py-2 font-mono text-xs"
                  spellCheck={false}
                  value={json[key]}
                  aria-invalid={errors[key] ? true : undefined}
                  aria-describedby={errors[key] ? `json-${key}-error` : undefined}
                  onChange={(e) => {
                    setJson((j) => ({ ...j, [key]: e.target.value }));
                    touched();
                  }}
                />
              </Field>
            ))}
          </div>
        ) : null}

        {formError ? (
          <Alert variant="destructive">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={pending}>
            Review signature
          </Button>
          {mode !== 'json' ? (
            <Button type="button" variant="outline" onClick={editAsJson}>
              Edit as JSON
            </Button>
          ) : null}
        </div>
      </form>
      {review ? (
        <ReviewStep
          notice="Nothing is signed when you create the request"
          createLabel="Create signature request"
          pending={pending}
          onCreate={create}
          onEdit={() => setReview(null)}
        >
          <TypedDataReviewPanel review={review.review} requiredApprovals={review.requiredApprovals} />
        </ReviewStep>
      ) : null}
    </div>
  );
}
