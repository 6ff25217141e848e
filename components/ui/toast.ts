// Toasts without Sonner in the page's first load: each call loads Sonner (once) and asks the console's
// `ToasterHost` to mount the toaster; Sonner shows toasts raised before its toaster subscribed.
import type { toast as sonnerToast } from 'sonner';

type Show = (...args: Parameters<typeof sonnerToast.success>) => void;

let sonner: Promise<typeof import('sonner')> | undefined;
const wanted = new Set<() => void>();
let toasterWanted = false;

/** Loads Sonner once; the toaster host mounts its toaster from then on. */
export function loadToaster(): Promise<typeof import('sonner')> {
  sonner ??= import('sonner');
  if (!toasterWanted) {
    toasterWanted = true;
    for (const listener of wanted) listener();
  }
  return sonner;
}

/** For `useSyncExternalStore` in the toaster host. */
export function subscribeToasterWanted(listener: () => void): () => void {
  wanted.add(listener);
  return () => wanted.delete(listener);
}
export const isToasterWanted = () => toasterWanted;

function show(kind: 'success' | 'error' | 'warning'): Show {
  return (...args) => {
    void loadToaster().then(({ toast }) => toast[kind](...args));
  };
}

export const toast = { success: show('success'), error: show('error'), warning: show('warning') };
