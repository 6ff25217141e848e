// Fields the whitelist and deposit-address forms share: the metadata JSON and the address's configuration flags.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '@/components/ui/field';

const FLAG_WORDS = {
  disableAutoSweep: [
    'Disable auto-sweep',
    'Deposits stay on this address instead of moving to the master wallet.',
  ],
  enableGaslessWithdraw: [
    'Enable gasless withdraw',
    'Withdrawals from this address do not need its own native coin.',
  ],
  showPrivateKey: [
    'Allow revealing the private key',
    'Admins may reveal the key later (re-authenticated, audited).',
  ],
} as const;

export type AddressFlag = keyof typeof FLAG_WORDS;

export function AddressFlagsFieldset<F extends AddressFlag>({
  flags,
  register,
}: {
  flags: readonly F[];
  register: (name: F) => UseFormRegisterReturn;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Configuration</legend>
      {flags.map((name) => (
        <label key={name} className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4" {...register(name)} />
          <span>
            {FLAG_WORDS[name][0]}
            <span className="block text-muted-foreground">{FLAG_WORDS[name][1]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function MetadataField({
  id,
  error,
  registration,
  placeholder,
}: {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  placeholder?: string;
}) {
  return (
    <Field id={id} label="Metadata (JSON object, optional)" error={error}>
      <textarea
        id={id}
        rows={3}
        placeholder={placeholder}
        className="rounded-md border border-input bg-background px-3 py-2 font-mono text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        {...registration}
      />
    </Field>
  );
}
