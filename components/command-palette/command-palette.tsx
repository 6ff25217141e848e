'use client';
// Ctrl/Cmd+K or the Search button opens the palette: pages and actions by name (from the server, already
// filtered by what the person may do) and records across every connected wallet. Only the button and the
// shortcut load with the page; the dialog, cmdk and the search load on first use.
import { Search } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { PaletteCommand } from './palette-commands';

const CommandPaletteDialog = dynamic(
  () => import('./command-palette-dialog').then((m) => m.CommandPaletteDialog),
  { ssr: false },
);

export function CommandPalette({ commands }: { commands: PaletteCommand[] }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so its search and typed text survive closing and opening again.
  const [used, setUsed] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setUsed(true);
        setOpen((value) => !value);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="justify-between text-muted-foreground sm:w-56"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <span className="inline-flex items-center gap-2">
          <Search aria-hidden />
          {/* On a phone only the icon shows; the name stays for assistive technology. */}
          <span className="sr-only sm:not-sr-only">Search…</span>
        </span>
        <kbd aria-hidden className="hidden rounded border bg-muted px-1.5 font-mono text-[10px] sm:inline">
          Ctrl K
        </kbd>
      </Button>
      {used ? <CommandPaletteDialog commands={commands} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
