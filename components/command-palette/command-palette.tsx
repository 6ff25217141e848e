'use client';
// Ctrl/Cmd+K: find a transaction (id, hash, reference) or an address (id, address, name) across every
// connected wallet and jump to it. The search runs on the server (GET /api/search).
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { ArrowLeftRight, Search, Wallet } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

interface SearchHit {
  kind: 'transaction' | 'address';
  walletId: string;
  walletName: string;
  id: string;
  title: string;
  subtitle: string;
  href: string;
}
interface SearchResult {
  query: string;
  hits: SearchHit[];
  failures: Array<{ walletId: string; walletName: string; message: string }>;
}

const MIN_QUERY = 3;

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

export function CommandPalette() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((value) => !value);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

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

  const go = (hit: SearchHit) => {
    setOpen(false);
    setText('');
    router.push(hit.href);
  };

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="w-56 justify-between text-muted-foreground"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <span className="inline-flex items-center gap-2">
          <Search aria-hidden />
          Search…
        </span>
        <kbd className="rounded border bg-muted px-1.5 font-mono text-[10px]">Ctrl K</kbd>
      </Button>
      <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60" />
          <DialogPrimitive.Content className="fixed left-1/2 top-[15vh] z-50 w-full max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border bg-popover text-popover-foreground shadow-lg">
            <DialogPrimitive.Title className="sr-only">Search the console</DialogPrimitive.Title>
            <DialogPrimitive.Description className="sr-only">
              Find a transaction by id, hash or reference, or an address by id, address or name, in every
              connected wallet.
            </DialogPrimitive.Description>
            <Command shouldFilter={false} label="Search transactions and addresses" className="flex flex-col">
              <div className="flex items-center gap-2 border-b px-3">
                <Search aria-hidden className="size-4 text-muted-foreground" />
                <Command.Input
                  value={text}
                  onValueChange={setText}
                  aria-label="Search transactions and addresses"
                  placeholder="Transaction id, hash, reference, or address…"
                  className="h-11 flex-1 bg-transparent text-sm outline-none placeholder:text-muted-foreground"
                />
              </div>
              <Command.List className="max-h-96 overflow-y-auto p-1">
                {q.length < MIN_QUERY ? (
                  <p className="px-3 py-6 text-center text-sm text-muted-foreground">
                    Type at least {MIN_QUERY} characters: an id, a hash, a reference or an address.
                  </p>
                ) : waiting && hits.length === 0 ? (
                  <Command.Loading>
                    <p className="px-3 py-6 text-center text-sm text-muted-foreground">
                      Searching every wallet…
                    </p>
                  </Command.Loading>
                ) : search.isError ? (
                  <p role="alert" className="px-3 py-6 text-center text-sm text-destructive">
                    {search.error.message}
                  </p>
                ) : (
                  <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
                    Nothing found for “{q}”.
                  </Command.Empty>
                )}
                {transactions.length > 0 ? (
                  <Command.Group
                    heading="Transactions"
                    className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
                  >
                    {transactions.map((hit) => (
                      <PaletteItem key={`${hit.walletId}:${hit.id}`} hit={hit} onSelect={go} />
                    ))}
                  </Command.Group>
                ) : null}
                {addresses.length > 0 ? (
                  <Command.Group
                    heading="Addresses"
                    className="[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
                  >
                    {addresses.map((hit) => (
                      <PaletteItem key={`${hit.walletId}:${hit.id}`} hit={hit} onSelect={go} />
                    ))}
                  </Command.Group>
                ) : null}
              </Command.List>
              {search.data && search.data.failures.length > 0 ? (
                <p className="border-t px-3 py-2 text-xs text-muted-foreground">
                  Not searched: {search.data.failures.map((f) => `${f.walletName} (${f.message})`).join('; ')}
                </p>
              ) : null}
            </Command>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    </>
  );
}

function PaletteItem({ hit, onSelect }: { hit: SearchHit; onSelect: (hit: SearchHit) => void }) {
  const Icon = hit.kind === 'transaction' ? ArrowLeftRight : Wallet;
  return (
    <Command.Item
      value={`${hit.kind}:${hit.walletId}:${hit.id}`}
      onSelect={() => onSelect(hit)}
      className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <span className="grid min-w-0">
        <span className="truncate font-medium">{hit.title}</span>
        <span className="truncate text-xs text-muted-foreground">{hit.subtitle}</span>
      </span>
    </Command.Item>
  );
}
