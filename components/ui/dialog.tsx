'use client';
// Dialogs whose Radix code loads when one is first opened (`first-use.tsx`); the parts are in `dialog-parts.tsx`.
import type * as React from 'react';
import { cn } from '@/lib/utils';
import { firstUseOverlay } from './first-use';

const overlay = firstUseOverlay(() => import('./dialog-parts'), 'dialog');

export const Dialog = overlay.Root;
export const DialogTrigger = overlay.Trigger;
export const DialogClose = overlay.part('Close');
export const DialogContent = overlay.part('Content');
export const DialogTitle = overlay.part('Title');
export const DialogDescription = overlay.part('Description');
/** The unstyled parts, for dialogs laid out differently (a drawer, a side panel). */
export const DialogPortal = overlay.part('Portal');
export const DialogOverlay = overlay.part('Overlay');
export const DialogPrimitiveContent = overlay.part('PrimitiveContent');
export const DialogPrimitiveTitle = overlay.part('PrimitiveTitle');
export const DialogPrimitiveDescription = overlay.part('PrimitiveDescription');

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5', className)} {...props} />;
}
export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}
