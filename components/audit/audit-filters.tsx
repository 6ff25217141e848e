'use client';
import { DownloadIcon } from 'lucide-react';
import { useQueryStates } from 'nuqs';
import { useEffect, useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  type AuditDayField,
  auditDayProblems,
  auditSearchParams,
  serializeAuditFilters,
} from '@/lib/validation/audit';

type Draft = { q: string; actor: string; action: string; from: string; to: string };

export interface AuditFiltersProps {
  /** The URL's days the server could not read (a day the calendar has not, or a reversed period). */
  errors?: Partial<Record<AuditDayField, string>>;
}

/**
 * The audit log's filters. Typing edits a draft; "Filter" writes it to the URL, which re-renders the
 * server page (shallow: false), so the search always runs on the server over the whole log.
 */
export function AuditFilters({ errors: urlErrors = {} }: AuditFiltersProps) {
  const [isLoading, startTransition] = useTransition();
  const [search, setSearch] = useQueryStates(auditSearchParams, { shallow: false, startTransition });
  const fromUrl = (): Draft => ({
    q: search.q ?? '',
    actor: search.actor ?? '',
    action: search.action ?? '',
    from: search.from ?? '',
    to: search.to ?? '',
  });
  const [draft, setDraft] = useState<Draft>(fromUrl);
  // The form's own check of the days typed (the same rule as the export's); the URL's until the person filters.
  const [typedErrors, setTypedErrors] = useState<Partial<Record<AuditDayField, string>> | null>(null);
  const dayErrors = typedErrors ?? urlErrors;
  // Back and forward change the URL under the form: follow it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fromUrl reads exactly these values
  useEffect(() => {
    setDraft(fromUrl());
    setTypedErrors(null);
  }, [search.q, search.actor, search.action, search.from, search.to]);

  const field = (name: keyof Draft) => ({
    id: `audit-${name}`,
    name,
    value: draft[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setDraft((d) => ({ ...d, [name]: event.target.value })),
  });
  const applied = {
    q: search.q,
    actor: search.actor,
    action: search.action,
    from: search.from,
    to: search.to,
  };

  return (
    <form
      aria-label="Filter the audit log"
      className="mb-4 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const problems = auditDayProblems({ from: draft.from, to: draft.to });
        setTypedErrors(problems);
        if (Object.keys(problems).length > 0) return;
        const blank = (v: string) => v.trim() || null;
        void setSearch({
          q: blank(draft.q),
          actor: blank(draft.actor),
          action: blank(draft.action),
          from: draft.from || null,
          to: draft.to || null,
          page: null,
        });
      }}
    >
      <div className="grid w-full gap-1 sm:w-64">
        <Label htmlFor="audit-q">Search</Label>
        <Input {...field('q')} type="search" placeholder="Actor, action or target" />
      </div>
      <div className="grid w-full gap-1 sm:w-56">
        <Label htmlFor="audit-actor">Actor email</Label>
        <Input {...field('actor')} placeholder="e.g. finance2" />
      </div>
      <div className="grid w-full gap-1 sm:w-48">
        <Label htmlFor="audit-action">Action</Label>
        <Input {...field('action')} placeholder="e.g. approval" />
      </div>
      {(['from', 'to'] as const).map((name) => (
        <Field
          key={name}
          id={`audit-${name}`}
          label={name === 'from' ? 'From' : 'To'}
          error={dayErrors[name]}
        >
          <Input
            {...field(name)}
            type="date"
            aria-invalid={dayErrors[name] ? true : undefined}
            aria-describedby={dayErrors[name] ? `audit-${name}-error` : undefined}
          />
        </Field>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="secondary" disabled={isLoading}>
          Filter
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setDraft({ q: '', actor: '', action: '', from: '', to: '' });
            setTypedErrors({});
            void setSearch(null);
          }}
        >
          Clear
        </Button>
        {Object.keys(dayErrors).length > 0 ? (
          // The export would refuse the period (or, without it, hold every entry): fix the dates first.
          <Button type="button" variant="outline" disabled>
            <DownloadIcon aria-hidden />
            Export CSV
          </Button>
        ) : (
          <Button asChild variant="outline">
            <a href={serializeAuditFilters('/audit/export.csv', applied)} download>
              <DownloadIcon aria-hidden />
              Export CSV
            </a>
          </Button>
        )}
      </div>
    </form>
  );
}
