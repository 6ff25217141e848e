'use client';
import { useRouter } from 'next/navigation';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';
import { serializeSettlementSearch } from '@/lib/validation/settlement-search';

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
          router.push(
            serializeSettlementSearch(`/wallets/${walletId}/settlement`, { addressId: id || null }),
          );
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
