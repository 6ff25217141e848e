'use client';
import { Search, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/** Filters on the left, actions (export, column menu) on the right; wraps on small screens. */
export function DataTableToolbar({
  children,
  actions,
  onReset,
  className,
}: {
  children?: ReactNode;
  actions?: ReactNode;
  /** Shown as "Reset filters" when given (pass it only while some filter is set). */
  onReset?: () => void;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-wrap items-end justify-between gap-3 pb-3', className)}>
      <div className="flex flex-wrap items-end gap-3">
        {children}
        {onReset ? (
          <Button variant="ghost" size="sm" onClick={onReset}>
            <X aria-hidden />
            Reset filters
          </Button>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export interface DataTableSelectFilterProps {
  label: string;
  value: string;
  /** The option for "no filter"; its value is the empty string. */
  allLabel?: string;
  options: readonly (string | { value: string; label: string })[];
  onChange: (value: string) => void;
  className?: string;
}

/** A labelled single-choice filter (native select: keyboard and screen readers for free). */
export function DataTableSelectFilter({
  label,
  value,
  allLabel = 'All',
  options,
  onChange,
  className,
}: DataTableSelectFilterProps) {
  const id = useId();
  return (
    <div className={cn('grid gap-1', className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <NativeSelect id={id} className="h-8 w-40" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{allLabel}</option>
        {options.map((o) => {
          const { value: v, label: l } = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {l}
            </option>
          );
        })}
      </NativeSelect>
    </div>
  );
}

export interface DataTableSearchProps {
  label: string;
  value: string;
  placeholder?: string;
  onSearch: (value: string) => void;
  /** Message shown under the field (e.g. why the search was not applied). */
  error?: string;
  className?: string;
}

/** A search box applied on Enter (not per keystroke: each search is an upstream call). */
export function DataTableSearch({
  label,
  value,
  placeholder,
  onSearch,
  error,
  className,
}: DataTableSearchProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <search className={className}>
      <form onSubmit={submit} className="grid gap-1">
        <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
          {label}
        </label>
        <div className="flex gap-1">
          <Input
            id={id}
            value={draft}
            placeholder={placeholder}
            onChange={(e) => setDraft(e.target.value)}
            className="h-8 w-72"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <Button type="submit" variant="outline" size="sm" aria-label={`Apply ${label.toLowerCase()}`}>
            <Search aria-hidden />
          </Button>
        </div>
        {error ? (
          <p id={`${id}-error`} className="text-xs font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </form>
    </search>
  );
}
