'use client';
// Menus whose Radix code loads when one is first opened (`first-use.tsx`); the parts are in `dropdown-menu-parts.tsx`.
import { firstUseOverlay } from './first-use';

const overlay = firstUseOverlay(() => import('./dropdown-menu-parts'), 'menu');

export const DropdownMenu = overlay.Root;
export const DropdownMenuTrigger = overlay.Trigger;
export const DropdownMenuContent = overlay.part('Content');
export const DropdownMenuItem = overlay.part('Item');
export const DropdownMenuLabel = overlay.part('Label');
export const DropdownMenuSeparator = overlay.part('Separator');
export const DropdownMenuCheckboxItem = overlay.part('CheckboxItem');
export const DropdownMenuItemIndicator = overlay.part('ItemIndicator');
