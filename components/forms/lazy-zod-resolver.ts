import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * `zodResolver(schema)` for react-hook-form whose zod, resolver and schema load at the form's first validation, as a
 * chunk of their own, rather than with the page. Made once per form, at module level:
 * `lazyZodResolver(() => import('@/lib/validation/users').then((m) => m.addUserSchema))`.
 */
export function lazyZodResolver<Input extends FieldValues, Output = Input>(
  load: () => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> {
  let ready: Promise<Resolver<Input, unknown, Output>> | undefined;
  return async (values, context, options) => {
    ready ??= Promise.all([import('@hookform/resolvers/zod'), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<Input, unknown, Output>,
      (error: unknown) => {
        // A chunk that failed to load (a dropped connection) is fetched again at the next validation.
        ready = undefined;
        throw error;
      },
    );
    return (await ready)(values, context, options);
  };
}
