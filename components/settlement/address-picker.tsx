'use client';
import { useRouter } from 'next/navigation';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';

export function AddressPicker({
  walletId,
  options,
  selected,
}: {
  walletId: string;
  options: { id: string; label: string }[];
  selected?: string;
}) {
  const router = useRouter();
  return (
    <Field id="rule-address" label="Child address">
      <NativeSelect
        id="rule-address"
        value={selected ?? ''}
        onChange={(e) => {
          const id = e.target.value;
          router.push(`/wallets/${walletId}/settlement${id ? `?addressId=${encodeURIComponent(id)}` : ''}`);
        }}
      >
        <option value="">Choose an address…</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}
