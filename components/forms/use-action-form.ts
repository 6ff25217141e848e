'use client';
// A form whose submit calls a server action: react-hook-form with the (lazily loaded) zod resolver, the call,
// the action's field errors put under their fields and its message in the banner, and the pending state.
import { useState, useTransition } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { lazyZodResolver } from './lazy-zod-resolver';
import { showFieldErrors } from './show-field-errors';

/** What a server action answers, as the browser sees it. */
export type ActionFormResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };

export interface ActionFormOptions<V extends FieldValues, O, T> {
  /**
   * The schema the form checks, loaded at its first validation so that zod and the schema are not part of the
   * page's first load: `() => import('@/lib/validation/…').then((m) => m.schema)`. Or a `resolver` of the form's own.
   */
  schema?: () => Promise<z.ZodType<O, V>>;
  resolver?: Resolver<V, unknown, O>;
  defaultValues: NoInfer<DefaultValues<V>>;
  /** The fields that take the action's field errors; without it, every key the action names. */
  fields?: readonly Path<V>[];
  /** When a field takes an error, the action's message stays out of the banner (it is the field's message). */
  fieldErrorsOnly?: boolean;
  /** Focus the first field that takes an error of the action. */
  focusFieldError?: boolean;
  /** The banner at first (and after `reset`), e.g. why the form cannot be used. */
  initialBanner?: string | null;
  /** The banner stays up while the action runs (it is replaced by the answer) instead of clearing at submit. */
  keepBannerWhilePending?: boolean;
  /**
   * Pending as plain state instead of a transition: for a form opened by an action that is itself a pending
   * transition (React would keep this one pending with it).
   */
  withoutTransition?: boolean;
  /** When the form's values passed the schema, before the action is called. */
  onSubmit?: (values: O) => void;
  onSuccess?: (data: T, values: O) => void;
  onFailure?: (result: { error: string; fieldErrors?: Record<string, string> }, values: O) => void;
}

export interface ActionForm<V extends FieldValues, O> {
  form: UseFormReturn<V, unknown, O>;
  /** The form's submit handler: checks the values, then calls the action. */
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  pending: boolean;
  /** The action's message when it refused, for the form's banner. */
  banner: string | null;
  setBanner: (banner: string | null) => void;
  /** Runs other work of the form (a second button) with the same pending state. */
  run: (work: () => Promise<void>) => void;
  /** Back to the default values (or `values`) and the first banner. */
  reset: (values?: DefaultValues<V>) => void;
}

/**
 * `action` gets the values the schema gave, and the form's values as typed (for an action that parses the form's
 * own schema).
 */
export function useActionForm<V extends FieldValues, O, T>(
  action: (values: O, typed: V) => Promise<ActionFormResult<T>>,
  options: ActionFormOptions<V, O, T>,
): ActionForm<V, O> {
  // The form keeps its first resolver (react-hook-form reads it on every validation; the schema loads once).
  const [lazy] = useState(() => (options.schema ? lazyZodResolver(options.schema) : undefined));
  const form = useForm<V, unknown, O>({
    resolver: options.resolver ?? lazy,
    defaultValues: options.defaultValues,
  });
  const initialBanner = options.initialBanner ?? null;
  const [banner, setBanner] = useState<string | null>(initialBanner);
  const [transitionPending, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);

  const run = (work: () => Promise<void>) => {
    if (!options.withoutTransition) return startTransition(work);
    setBusy(true);
    void work().finally(() => setBusy(false));
  };

  const onSubmit = form.handleSubmit((values) => {
    const typed = form.getValues();
    if (!options.keepBannerWhilePending) setBanner(null);
    options.onSubmit?.(values);
    run(async () => {
      const result = await action(values, typed);
      if (result.ok) {
        setBanner(null);
        options.onSuccess?.(result.data, values);
        return;
      }
      const shown = showFieldErrors(form, result.fieldErrors, {
        fields: options.fields,
        focus: options.focusFieldError,
      });
      if (!(shown && options.fieldErrorsOnly)) setBanner(result.error);
      options.onFailure?.(result, values);
    });
  });

  const reset = (values?: DefaultValues<V>) => {
    form.reset(values ?? options.defaultValues);
    setBanner(initialBanner);
  };

  return {
    form,
    onSubmit,
    pending: options.withoutTransition ? busy : transitionPending,
    banner,
    setBanner,
    run,
    reset,
  };
}
