'use client';
// Runs an action; when the server asks for the second factor again (`stepUp` in its refusal), opens the
// "Confirm it is you" dialog and, once confirmed, runs the action again, once.
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from 'react';

// The dialog (its form library and checks) loads the first time the server asks for it, not with the page.
const StepUpDialog = lazy(() => import('./step-up-dialog').then((m) => ({ default: m.StepUpDialog })));

/** An action's result as far as step-up reads it. */
type Outcome = { ok: true } | { ok: false; stepUp?: { payloadHash: string; each?: boolean } };

const stepUpOf = (result: Outcome) => (result.ok ? undefined : result.stepUp);

export interface StepUp {
  /** Runs `call`, asking for the second factor and running it again when the server says so. */
  withStepUp: <R extends Outcome>(call: () => Promise<R>) => Promise<R>;
  /** Render once in the component that uses the hook. */
  dialog: ReactNode;
}

export function useStepUp(): StepUp {
  const [asking, setAsking] = useState<{ payloadHash: string; each?: boolean } | null>(null);
  const waiting = useRef<((confirmed: boolean) => void) | null>(null);

  const withStepUp = useCallback(async <R extends Outcome>(call: () => Promise<R>): Promise<R> => {
    const first = await call();
    const asked = stepUpOf(first);
    if (!asked) return first;
    const confirmed = await new Promise<boolean>((resolve) => {
      waiting.current?.(false);
      waiting.current = resolve;
      setAsking(asked);
    });
    return confirmed ? call() : first;
  }, []);

  const onDone = useCallback((confirmed: boolean) => {
    setAsking(null);
    const resolve = waiting.current;
    waiting.current = null;
    resolve?.(confirmed);
  }, []);

  const [asked, setAsked] = useState(false);
  if (asking && !asked) setAsked(true);
  return {
    withStepUp,
    dialog: asked ? (
      <Suspense fallback={null}>
        <StepUpDialog asked={asking} onDone={onDone} />
      </Suspense>
    ) : null,
  };
}
