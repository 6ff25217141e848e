'use client';
// Runs an action; when the server asks for the second factor again (`stepUp` in its refusal), opens the
// "Confirm it is you" dialog and, once confirmed, runs the action again, once.
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { StepUpDialog } from './step-up-dialog';

/** An action's result as far as step-up reads it. */
type Outcome = { ok: true } | { ok: false; stepUp?: { payloadHash: string } };

const stepUpOf = (result: Outcome) => (result.ok ? undefined : result.stepUp);

export interface StepUp {
  /** Runs `call`, asking for the second factor and running it again when the server says so. */
  withStepUp: <R extends Outcome>(call: () => Promise<R>) => Promise<R>;
  /** Render once in the component that uses the hook. */
  dialog: ReactNode;
}

export function useStepUp(): StepUp {
  const [payloadHash, setPayloadHash] = useState<string | null>(null);
  const waiting = useRef<((confirmed: boolean) => void) | null>(null);

  const withStepUp = useCallback(async <R extends Outcome>(call: () => Promise<R>): Promise<R> => {
    const first = await call();
    const asked = stepUpOf(first);
    if (!asked) return first;
    const confirmed = await new Promise<boolean>((resolve) => {
      waiting.current?.(false);
      waiting.current = resolve;
      setPayloadHash(asked.payloadHash);
    });
    return confirmed ? call() : first;
  }, []);

  const onDone = useCallback((confirmed: boolean) => {
    setPayloadHash(null);
    const resolve = waiting.current;
    waiting.current = null;
    resolve?.(confirmed);
  }, []);

  return { withStepUp, dialog: <StepUpDialog payloadHash={payloadHash} onDone={onDone} /> };
}
