'use client';
// Typed-data signature request: a permit or authorization form, or the raw EIP-712 JSON; then the review.
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { RequestFlow } from '@/components/operations/request-flow';
import { messagesOf, useOperationRequest } from '@/components/operations/use-operation-request';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import {
  createTypedDataRequestAction,
  lookUpSigningAddressAction,
  previewTypedDataAction,
} from '@/lib/actions/signing';
import {
  buildPermit,
  buildTransferWithAuthorization,
  parseTypedDataText,
  type TypedDataCheck,
  type TypedDataFormValues,
  type TypedDataRequest,
} from '@/lib/validation/typed-data';

export interface TypedDataFormProps {
  walletId: string;
  addresses: Array<{ id: string; label: string; address: string }>;
  /** `known`: the service cannot list addresses; the form also takes an address id typed by hand. */
  addressSource?: 'service' | 'known';
  tokens: Array<{ address: string; symbol: string; name: string; decimals: number }>;
  chainId: number | null;
}

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

const TOKEN_FIELDS = ['addressId', 'token', 'name', 'version', 'chainId', 'verifyingContract', 'value'];
/** The fields each kind of the form shows. */
const FIELDS_OF: Record<TypedDataFormValues['mode'], string[]> = {
  permit: [...TOKEN_FIELDS, 'spender', 'nonce', 'deadline'],
  transferWithAuthorization: [...TOKEN_FIELDS, 'to', 'validAfter', 'validBefore', 'authNonce'],
  json: ['addressId', 'domain', 'types', 'message'],
};

/** The document the form describes, from its values and the signing address. */
function buildDocument(values: TypedDataFormValues, signer: string, decimals: number): TypedDataCheck {
  const tokenDomain = {
    name: values.name,
    version: values.version,
    chainId: values.chainId,
    verifyingContract: values.verifyingContract,
    decimals,
  };
  if (values.mode === 'permit')
    return buildPermit({
      ...tokenDomain,
      owner: signer,
      spender: values.spender,
      value: values.value,
      nonce: values.nonce,
      deadline: unixSeconds(values.deadline),
    });
  if (values.mode === 'transferWithAuthorization')
    return buildTransferWithAuthorization({
      ...tokenDomain,
      from: signer,
      to: values.to,
      value: values.value,
      validAfter: unixSeconds(values.validAfter),
      validBefore: unixSeconds(values.validBefore),
      nonce: values.authNonce,
    });
  // The server holds a pasted permit to the same rule: its owner must be the signing address.
  return parseTypedDataText(values, { signer });
}

export function TypedDataForm({
  walletId,
  addresses: listed,
  tokens,
  chainId,
  addressSource = 'service',
}: TypedDataFormProps) {
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typed, setTyped] = useState<AddressOption[]>([]);
  const addresses = [...listed, ...typed.filter((t) => !listed.some((a) => a.id === t.id))];
  const first = tokens[0];
  const [defaults] = useState<TypedDataFormValues>(() => ({
    walletId,
    addressId: '',
    mode: 'permit',
    token: first?.address ?? OTHER,
    name: first?.name ?? '',
    version: '1',
    chainId: chainId === null ? '' : String(chainId),
    verifyingContract: first?.address ?? '',
    spender: '',
    to: '',
    value: '',
    nonce: '0',
    authNonce: randomNonce(),
    deadline: localInput(new Date(Date.now() + 7 * 24 * 3600 * 1000)),
    validAfter: localInput(new Date()),
    validBefore: localInput(new Date(Date.now() + 24 * 3600 * 1000)),
    domain: '',
    types: '',
    message: '',
  }));
  const signerOf = (addressId: string) => addresses.find((a) => a.id === addressId)?.address ?? '';
  const decimalsOf = (token: string) => tokens.find((t) => t.address === token)?.decimals ?? 0;
  const flow = useOperationRequest<TypedDataFormValues, TypedDataRequest>({
    schema: () => import('@/lib/validation/typed-data-schema').then((m) => m.typedDataFormSchema),
    defaultValues: defaults,
    toInput: (values) => {
      const check = buildDocument(values, signerOf(values.addressId), decimalsOf(values.token));
      if (!check.ok) {
        const fieldErrors: Record<string, string> = {};
        for (const [key, message] of Object.entries(check.fieldErrors)) {
          // Owner and from are the signing address: their error belongs to the address picker.
          const at =
            key === 'owner' || key === 'from'
              ? 'addressId'
              : key === 'nonce' && values.mode === 'transferWithAuthorization'
                ? 'authNonce'
                : key;
          fieldErrors[at] ??= message;
        }
        // A problem no field of this kind shows (a JSON part of a permit, say) is said in the banner.
        const shown = Object.keys(fieldErrors).some((key) => FIELDS_OF[values.mode].includes(key));
        return shown ? { ok: false, fieldErrors } : { ok: false, fieldErrors, error: check.error };
      }
      const doc = check.value;
      return {
        ok: true,
        input: {
          walletId,
          addressId: values.addressId,
          domain: doc.domain,
          types: doc.types,
          message: doc.message,
          primaryType: doc.primaryType,
        },
      };
    },
    preview: previewTypedDataAction,
    create: createTypedDataRequestAction,
  });
  const { register, control, setValue, getValues, clearErrors, formState } = flow.form;
  const values = useWatch({ control }) as TypedDataFormValues;
  const { mode, token } = values;
  const signer = signerOf(values.addressId);
  const errors = messagesOf(formState.errors);

  function editAsJson() {
    const current = getValues();
    const check = buildDocument(current, signerOf(current.addressId), decimalsOf(current.token));
    if (check.ok) {
      const { domain: d, types, message } = check.value;
      setValue('domain', JSON.stringify(d, null, 2));
      setValue('types', JSON.stringify(types, null, 2));
      setValue('message', JSON.stringify(message, null, 2));
    }
    setValue('mode', 'json');
    clearErrors();
  }

  const err = (id: keyof TypedDataFormValues) => ({
    'aria-invalid': errors[id] ? true : undefined,
    'aria-describedby': errors[id] ? `${id}-error` : undefined,
  });
  const tokenFields = (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="token" label="Token">
        <NativeSelect
          id="token"
          {...register('token', {
            onChange: (e) => {
              const picked = tokens.find((t) => t.address === e.target.value);
              if (picked) {
                setValue('name', picked.name);
                setValue('verifyingContract', picked.address);
              }
            },
          })}
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
          readOnly={token !== OTHER}
          {...err('verifyingContract')}
          {...register('verifyingContract')}
        />
      </Field>
      <Field id="name" label="Domain name" error={errors.name}>
        <Input id="name" {...err('name')} {...register('name')} />
      </Field>
      <Field id="version" label="Domain version" error={errors.version}>
        <Input id="version" {...err('version')} {...register('version')} />
      </Field>
      <Field id="chainId" label="Chain id" error={errors.chainId}>
        <Input id="chainId" inputMode="numeric" {...err('chainId')} {...register('chainId')} />
      </Field>
    </div>
  );

  return (
    <RequestFlow
      flow={flow}
      confirmLabel="Create signature request"
      notice="Nothing is signed when you create the request"
    >
      <form
        aria-label="Typed-data signature"
        className="grid max-w-3xl gap-4"
        noValidate
        onSubmit={flow.requestReview}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="addressId" label="Signing address" error={errors.addressId}>
            <NativeSelect id="addressId" {...err('addressId')} {...register('addressId')}>
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
                  setValue('addressId', found.id);
                  clearErrors('addressId');
                }}
              />
            </div>
          ) : null}
          <Field id="kind" label="Kind">
            <NativeSelect id="kind" {...register('mode', { onChange: () => clearErrors() })}>
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
              <Input id="spender" className="font-mono" {...err('spender')} {...register('spender')} />
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
                aria-invalid={errors.value ? true : undefined}
                aria-describedby={errors.value ? 'value-error' : 'value-hint'}
                {...register('value')}
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
                aria-invalid={errors.nonce ? true : undefined}
                aria-describedby={errors.nonce ? 'nonce-error' : 'nonce-hint'}
                {...register('nonce')}
              />
            </Field>
            <Field id="deadline" label="Deadline" error={errors.deadline}>
              <Input id="deadline" type="datetime-local" {...err('deadline')} {...register('deadline')} />
            </Field>
          </div>
        ) : null}

        {mode === 'transferWithAuthorization' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="to" label="To" error={errors.to}>
              <Input id="to" className="font-mono" {...err('to')} {...register('to')} />
            </Field>
            <Field
              id="value"
              label={token === OTHER ? 'Value (base units)' : 'Value (token units)'}
              error={errors.value}
            >
              <Input id="value" inputMode="decimal" {...err('value')} {...register('value')} />
            </Field>
            <Field id="validAfter" label="Valid after" error={errors.validAfter}>
              <Input
                id="validAfter"
                type="datetime-local"
                {...err('validAfter')}
                {...register('validAfter')}
              />
            </Field>
            <Field id="validBefore" label="Valid before" error={errors.validBefore}>
              <Input
                id="validBefore"
                type="datetime-local"
                {...err('validBefore')}
                {...register('validBefore')}
              />
            </Field>
            <Field id="authNonce" label="Nonce (32 bytes)" error={errors.authNonce}>
              <Input id="authNonce" className="font-mono" {...err('authNonce')} {...register('authNonce')} />
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
                  aria-invalid={errors[key] ? true : undefined}
                  aria-describedby={errors[key] ? `json-${key}-error` : undefined}
                  {...register(key)}
                />
              </Field>
            ))}
          </div>
        ) : null}

        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={flow.pending}>
            Review signature
          </Button>
          {mode !== 'json' ? (
            <Button type="button" variant="outline" onClick={editAsJson}>
              Edit as JSON
            </Button>
          ) : null}
        </div>
      </form>
    </RequestFlow>
  );
}
