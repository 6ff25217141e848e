'use client';
// The recipient picker's Radix popover and cmdk list, loaded when the picker is first opened (see
// `recipient-picker.tsx`, which forms import).
import { Command } from 'cmdk';
import { Popover } from 'radix-ui';
import { ADDRESS_BOOK_SOURCE_LABELS, type BookOption } from '@/lib/approvals/address-book';
import { formatDateTime, shortAddress } from '@/lib/format';

export const Root = Popover.Root;
export const Trigger = Popover.Trigger;

const ITEM_CLASS =
  'flex cursor-pointer items-start gap-2 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-60';

export interface PickerListProps {
  label: string;
  options: BookOption[];
  onPick: (option: BookOption) => void;
}

/** The popover's content: a combobox over the entries (type to filter, arrows to move, Enter to choose). */
export function List({ label, options, onPick }: PickerListProps) {
  return (
    <Popover.Portal>
      <Popover.Content
        align="start"
        sideOffset={4}
        aria-label={label}
        className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-md border bg-popover p-0 text-popover-foreground shadow-md"
      >
        {/* cmdk names its input and list by this label. */}
        <Command label="Search the address book by name">
          <Command.Input
            placeholder="Name, tag or address…"
            className="h-10 w-full border-b bg-transparent px-3 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className="max-h-72 overflow-y-auto p-1">
            <Command.Empty className="px-3 py-4 text-center text-sm text-muted-foreground">
              No entry matches.
            </Command.Empty>
            {options.map((o) => (
              <Command.Item
                key={o.id}
                value={o.id}
                keywords={[o.name, o.address, ...o.tags]}
                disabled={o.coolingOffUntil !== null || o.outsideBook}
                onSelect={() => onPick(o)}
                className={ITEM_CLASS}
              >
                <span className="grid min-w-0">
                  <span className="truncate font-medium">{o.name}</span>
                  <span className="truncate text-xs text-muted-foreground">
                    {shortAddress(o.address, 6)} · {ADDRESS_BOOK_SOURCE_LABELS[o.source]}
                    {o.coolingOffUntil ? ` · cooling off until ${formatDateTime(o.coolingOffUntil)}` : ''}
                    {o.outsideBook ? ' · not in the console’s book: cannot be paid' : ''}
                  </span>
                </span>
              </Command.Item>
            ))}
          </Command.List>
        </Command>
      </Popover.Content>
    </Popover.Portal>
  );
}
