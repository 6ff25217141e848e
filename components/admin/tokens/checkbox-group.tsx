'use client';
// A group of checkboxes holding one array field of a react-hook-form form (scopes, wallets).
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

export interface CheckboxGroupProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  legend: string;
  options: Array<{ value: string; label: string; description?: string }>;
  error?: string;
  /** What the group says when it offers nothing. */
  empty?: string;
}

export function CheckboxGroup<T extends FieldValues>({
  control,
  name,
  legend,
  options,
  error,
  empty = 'Nothing to choose.',
}: CheckboxGroupProps<T>) {
  const errorId = `${name}-error`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const value: string[] = Array.isArray(field.value) ? field.value : [];
        return (
          <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
            <legend className="mb-1 text-sm font-medium">{legend}</legend>
            {options.map((option) => (
              <label key={option.value} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4"
                  checked={value.includes(option.value)}
                  aria-invalid={Boolean(error)}
                  onBlur={field.onBlur}
                  onChange={(e) =>
                    field.onChange(
                      e.target.checked ? [...value, option.value] : value.filter((v) => v !== option.value),
                    )
                  }
                />
                <span>
                  {option.label}
                  {option.description ? (
                    <span className="block text-xs text-muted-foreground">{option.description}</span>
                  ) : null}
                </span>
              </label>
            ))}
            {options.length === 0 ? <p className="text-sm text-muted-foreground">{empty}</p> : null}
            {error ? (
              <p id={errorId} className="text-xs font-medium text-destructive">
                {error}
              </p>
            ) : null}
          </fieldset>
        );
      }}
    />
  );
}
