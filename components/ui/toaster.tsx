'use client';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { isToasterWanted, loadToaster, subscribeToasterWanted } from './toast';

const Toaster = lazy(() => import('./toaster-impl'));

/** Mounts Sonner's toaster once the page is idle after loading, or at the first toast, whichever comes first. */
export function ToasterHost() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, isToasterWanted, () => false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = setTimeout(loadToaster, 1_000);
      return () => clearTimeout(timer);
    }
    const idle = window.requestIdleCallback(() => void loadToaster(), { timeout: 3_000 });
    return () => window.cancelIdleCallback(idle);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
