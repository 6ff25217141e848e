'use client';
// The state of one money-moving request: the form, the preview the server builds for review, and the create
// call. Every request form (withdraw, swap, typed-data signature, contract write) goes through it.
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Mode,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { showFieldErrors as showOn } from '@/components/forms/show-field-errors';
import type { OperationReview } from '@/lib/approvals/kinds';

type Result<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };

/** The action's input built from the form, or what is wrong with the form (keys are the form's field paths). */
export type RequestInput<I> =
  | { ok: true; input: I }
  | { ok: false; fieldErrors: Record<string, string>; error?: string };

export interface OperationRequestOptions<V extends FieldValues, I> {
  /**
   * The schema the action parses (or the part of it the form holds), loaded at the form's first validation
   * so that zod and the schema are not part of the page's first load: `() => import('…').then((m) => m.schema)`.
   */
  schema: () => Promise<z.ZodType<V, V>>;
  defaultValues: DefaultValues<V>;
  mode?: Mode;
  /**
   * The action's input from the form's values, after the schema passed: the place for what the browser can
   * already tell (amount decimals, a balance, an address checksum). Without it the values are the input.
   */
  toInput?: (values: V) => RequestInput<I>;
  preview: (input: I) => Promise<Result<{ review: OperationReview; requiredApprovals: number }>>;
  create: (input: I) => Promise<Result<{ id: string }>>;
  /** After the request is created; without it the request's page opens. */
  onCreated?: (id: string) => void;
  /** The form field a server field error belongs to, when the action's keys differ from the form's. */
  fieldFor?: (key: string) => string;
}

type RequestStep<I> =
  | { kind: 'fill' }
  | { kind: 'review'; input: I; review: OperationReview; requiredApprovals: number };

export interface OperationRequest<V extends FieldValues, I = unknown> {
  form: UseFormReturn<V>;
  step: RequestStep<I>;
  /** The action's refusal, shown above the confirm or under the form. */
  banner: string | null;
  pending: boolean;
  /** The form's submit handler: checks, then asks the server for the review. */
  requestReview: (event?: React.BaseSyntheticEvent) => Promise<void>;
  /** Creates the request that was reviewed, exactly as reviewed. */
  confirm: () => void;
  /** Back to the form, every value kept. */
  back: () => void;
}

/** A form whose values are the action's input. */
export function useOperationRequest<V extends FieldValues>(
  options: OperationRequestOptions<V, V>,
): OperationRequest<V, V>;
/** A form whose values `toInput` turns into the action's input. */
export function useOperationRequest<V extends FieldValues, I>(
  options: OperationRequestOptions<V, I> & { toInput: (values: V) => RequestInput<I> },
): OperationRequest<V, I>;
export function useOperationRequest<I, V extends I & FieldValues>(
  options: OperationRequestOptions<V, I>,
): OperationRequest<V, I> {
  const router = useRouter();
  // The form keeps its first resolver (react-hook-form reads it on every validation).
  const [resolver] = useState(() => lazyZodResolver(options.schema));
  const form = useForm<V>({
    resolver,
    mode: options.mode ?? 'onSubmit',
    defaultValues: options.defaultValues,
  });
  const [step, setStep] = useState<RequestStep<I>>({ kind: 'fill' });
  const [banner, setBanner] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function showFieldErrors(fieldErrors: Record<string, string> | undefined) {
    showOn(form, fieldErrors, { fieldFor: options.fieldFor, type: 'server' });
  }

  const requestReview = form.handleSubmit((values) => {
    setBanner(null);
    const built: RequestInput<I> = options.toInput ? options.toInput(values) : { ok: true, input: values };
    if (!built.ok) {
      showFieldErrors(built.fieldErrors);
      if (built.error) setBanner(built.error);
      return;
    }
    startTransition(async () => {
      const result = await options.preview(built.input);
      if (!result.ok) {
        setBanner(result.error);
        showFieldErrors(result.fieldErrors);
        return;
      }
      setStep({ kind: 'review', input: built.input, ...result.data });
    });
  });

  function confirm() {
    if (step.kind !== 'review') return;
    const { input } = step;
    setBanner(null);
    startTransition(async () => {
      const result = await options.create(input);
      if (!result.ok) {
        setStep({ kind: 'fill' });
        setBanner(result.error);
        showFieldErrors(result.fieldErrors);
        return;
      }
      if (options.onCreated) {
        setStep({ kind: 'fill' });
        options.onCreated(result.data.id);
      } else router.push(`/approvals/${result.data.id}`);
    });
  }

  function back() {
    setBanner(null);
    setStep({ kind: 'fill' });
  }

  return { form, step, banner, pending, requestReview, confirm, back };
}

/** The message of each top-level field's error, for forms whose fields are flat. */
export function messagesOf<V extends FieldValues>(errors: FieldErrors<V>): Partial<Record<keyof V, string>> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, error]) => [key, (error as { message?: string } | undefined)?.message]),
  ) as Partial<Record<keyof V, string>>;
}
