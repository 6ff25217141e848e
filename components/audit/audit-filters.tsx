'use client';
import { DownloadIcon } from 'lucide-react';
import { useQueryStates } from 'nuqs';
import { useEffect, useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { auditSearchParams, serializeAuditFilters } from '@/lib/validation/audit';

type Draft = { q: string; actor: string; action: string; from: string; to: string };

/**
 * The audit log's filters. Typing edits a draft; "Filter" writes it to the URL, which re-renders the
 * server page (shallow: false), so the search always runs on the server over the whole log.
 */
export function AuditFilters() {
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
  // Back and forward change the URL under the form: follow it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fromUrl reads exactly these values
  useEffect(() => setDraft(fromUrl()), [search.q, search.actor, search.action, search.from, search.to]);

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
      <div className="grid gap-1">
        <Label htmlFor="audit-from">From</Label>
        <Input {...field('from')} type="date" />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="audit-to">To</Label>
        <Input {...field('to')} type="date" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="secondary" disabled={isLoading}>
          Filter
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setDraft({ q: '', actor: '', action: '', from: '', to: '' });
            void setSearch(null);
          }}
        >
          Clear
        </Button>
        <Button asChild variant="outline">
          <a href={serializeAuditFilters('/audit/export.csv', applied)} download>
            <DownloadIcon aria-hidden />
            Export CSV
          </a>
        </Button>
      </div>
    </form>
  );
}
