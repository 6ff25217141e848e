'use client';
// Below tablet width the sidebar is hidden: a menu button opens the same navigation in a drawer.
import { MenuIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogOverlay,
  DialogPortal,
  DialogPrimitiveContent,
  DialogPrimitiveDescription,
  DialogPrimitiveTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { type SidebarItem, SidebarNav } from './app-sidebar';

export function MobileNav({ items }: { items: SidebarItem[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
          <MenuIcon aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogPortal>
        <DialogOverlay className="fixed inset-0 z-50 bg-black/60 md:hidden" />
        <DialogPrimitiveContent className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r bg-sidebar text-sidebar-foreground shadow-lg md:hidden">
          <div className="flex h-14 items-center justify-between border-b px-4">
            <DialogPrimitiveTitle className="font-semibold">Custody Console</DialogPrimitiveTitle>
            <DialogClose asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <XIcon aria-hidden />
              </Button>
            </DialogClose>
          </div>
          <DialogPrimitiveDescription className="sr-only">The console's sections.</DialogPrimitiveDescription>
          <SidebarNav items={items} onNavigate={() => setOpen(false)} />
        </DialogPrimitiveContent>
      </DialogPortal>
    </Dialog>
  );
}
