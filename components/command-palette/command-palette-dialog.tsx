'use client';
// The palette's dialog, loaded on first use (cmdk and the dialog stay out of every page's first load): open a
// page or start an action by name, or find a transaction (id, hash, reference) or an address (id, address,
// name) across every connected wallet and jump to it. The record search runs on the server (GET /api/search).
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { ArrowLeftRight, ArrowRight, FileText, Search, Wallet } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useEffect, useState } from 'react';
import type { SearchHit, SearchResult } from '@/lib/search-result';
import type { PaletteCommand } from './palette-commands';

const MIN_QUERY = 3;

const GROUP_HEADING =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground';

/** Commands whose words contain every word typed, in the server's order. */
function matchCommands(commands: PaletteCommand[], text: string): PaletteCommand[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return commands.filter((c) => !c.perWallet);
  return commands.filter((c) => {
    const haystack = [c.label, c.hint ?? '', ...(c.keywords ?? [])].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

async function fetchSearch(q: string): Promise<SearchResult> {
  const res = await fetch(`/api/search?q=${encodeURIComponent(q)}`, {
    headers: { accept: 'application/json' },
  });
  const body = (await res.json().catch(() => null)) as (SearchResult & { message?: string }) | null;
  if (!res.ok || !body) throw new Error(body?.message ?? `Search failed (HTTP ${res.status})`);
  return body;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export interface CommandPaletteDialogProps {
  commands: PaletteCommand[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function CommandPaletteDialog({ commands, open, onOpenChange: setOpen }: CommandPaletteDialogProps) {
  const router = useRouter();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);

  const search = useQuery({
    queryKey: ['search', q],
    queryFn: () => fetchSearch(q),
    enabled: open && q.length >= MIN_QUERY,
    staleTime: 10_000,
  });
  const hits = search.data?.query === q ? search.data.hits : [];
  const transactions = hits.filter((h) => h.kind === 'transaction');
  const addresses = hits.filter((h) => h.kind === 'address');
  const waiting = q.length >= MIN_QUERY && (search.isFetching || text.trim() !== q);
  const matched = matchCommands(commands, text.trim());
  const pages = matched.filter((c) => c.group === 'Pages');
  const actions = matched.filter((c) => c.group === 'Actions');
  const nothing = matched.length === 0 && hits.length === 0;

  const go = (href: string) => {
    setOpen(false);
    setText('');
    router.push(href);
  };

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <DialogPrimitive.Content className="fixed left-1/2 top-[10vh] z-50 w-[calc(100%-1rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border bg-popover text-popover-foreground shadow-lg">
          <DialogPrimitive.Title className="sr-only">Search the console</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            Open a page or start an action by name, or find a transaction by id, hash or reference, or an
            address by id, address or name, in every connected wallet.
          </DialogPrimitive.Description>
          <Command shouldFilter={false} label="Search pages, actions and records" className="flex flex-col">
            <div className="flex items-center gap-2 border-b px-3">
              <Search aria-hidden className="size-4 text-muted-foreground" />
              <Command.Input
                value={text}
                onValueChange={setText}
                aria-label="Search pages, actions, transactions and addresses"
                placeholder="A page, an action, a transaction or an address…"
                className="h-11 flex-1 bg-transparent text-sm outline-none placeholder:text-muted-foreground"
              />
            </div>
            <Command.List className="max-h-96 overflow-y-auto p-1">
              {pages.length > 0 ? (
                <Command.Group heading="Pages" className={GROUP_HEADING}>
                  {pages.map((command) => (
                    <CommandItem key={command.id} command={command} onSelect={go} />
                  ))}
                </Command.Group>
              ) : null}
              {actions.length > 0 ? (
                <Command.Group heading="Actions" className={GROUP_HEADING}>
                  {actions.map((command) => (
                    <CommandItem key={command.id} command={command} onSelect={go} />
                  ))}
                </Command.Group>
              ) : null}
              {transactions.length > 0 ? (
                <Command.Group heading="Transactions" className={GROUP_HEADING}>
                  {transactions.map((hit) => (
                    <PaletteItem key={`${hit.walletId}:${hit.id}`} hit={hit} onSelect={go} />
                  ))}
                </Command.Group>
              ) : null}
              {addresses.length > 0 ? (
                <Command.Group heading="Addresses" className={GROUP_HEADING}>
                  {addresses.map((hit) => (
                    <PaletteItem key={`${hit.walletId}:${hit.id}`} hit={hit} onSelect={go} />
                  ))}
                </Command.Group>
              ) : null}
            </Command.List>
            {/* Messages sit outside the listbox: it may hold only options and groups. */}
            {q.length < MIN_QUERY ? (
              nothing ? (
                <p className="px-3 py-6 text-center text-sm text-muted-foreground">
                  Type a page or an action, or at least {MIN_QUERY} characters of an id, a hash, a reference
                  or an address.
                </p>
              ) : null
            ) : waiting && hits.length === 0 ? (
              <p role="status" className="border-t px-3 py-3 text-center text-sm text-muted-foreground">
                Searching every wallet…
              </p>
            ) : search.isError ? (
              <p role="alert" className="border-t px-3 py-3 text-center text-sm text-destructive">
                {search.error.message}
              </p>
            ) : nothing ? (
              <p className="px-3 py-6 text-center text-sm text-muted-foreground">Nothing found for “{q}”.</p>
            ) : null}
            {search.data && search.data.failures.length > 0 ? (
              <p className="border-t px-3 py-2 text-xs text-muted-foreground">
                Not searched: {search.data.failures.map((f) => `${f.walletName} (${f.message})`).join('; ')}
              </p>
            ) : null}
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

const ITEM_CLASS =
  'flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground';

function CommandItem({ command, onSelect }: { command: PaletteCommand; onSelect: (href: string) => void }) {
  const Icon = command.group === 'Pages' ? FileText : ArrowRight;
  return (
    <Command.Item value={command.id} onSelect={() => onSelect(command.href)} className={ITEM_CLASS}>
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <span className="grid min-w-0">
        <span className="truncate font-medium">{command.label}</span>
        {command.hint ? <span className="truncate text-xs text-muted-foreground">{command.hint}</span> : null}
      </span>
    </Command.Item>
  );
}

function PaletteItem({ hit, onSelect }: { hit: SearchHit; onSelect: (href: string) => void }) {
  const Icon = hit.kind === 'transaction' ? ArrowLeftRight : Wallet;
  return (
    <Command.Item
      value={`${hit.kind}:${hit.walletId}:${hit.id}`}
      onSelect={() => onSelect(hit.href)}
      className={ITEM_CLASS}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <span className="grid min-w-0">
        <span className="truncate font-medium">{hit.title}</span>
        <span className="truncate text-xs text-muted-foreground">{hit.subtitle}</span>
      </span>
    </Command.Item>
  );
}
