'use client';
// Picks a recipient from the wallet's address book by name (a combobox: type to filter, arrows to move,
// Enter to choose, Escape to close). Entries still cooling off are shown but cannot be chosen. The popover and
// its list load when the picker is first opened (`recipient-picker-parts.tsx`).
import { BookUserIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { firstUseOverlay } from '@/components/ui/first-use';
import type { BookOption } from '@/lib/approvals/address-book';

export interface RecipientPickerProps {
  /** Names the button: "Pick recipient 1 from the address book". */
  label: string;
  options: BookOption[];
  onPick: (option: BookOption) => void;
}

const overlay = firstUseOverlay(() => import('./recipient-picker-parts'), 'dialog');
const PickerList = overlay.part('List');

export function RecipientPicker({ label, options, onPick }: RecipientPickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <overlay.Root open={open} onOpenChange={setOpen}>
      <overlay.Trigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={label} disabled={options.length === 0}>
          <BookUserIcon aria-hidden /> Address book
        </Button>
      </overlay.Trigger>
      <PickerList
        label={label}
        options={options}
        onPick={(option: BookOption) => {
          onPick(option);
          setOpen(false);
        }}
      />
    </overlay.Root>
  );
}
