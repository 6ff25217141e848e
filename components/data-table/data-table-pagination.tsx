'use client';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/input';

export interface DataTablePaginationProps {
  /** 1-based, like the custody API's `page`. */
  page: number;
  pageSize: number;
  /** Total rows across all pages (the API's `meta.totalItems`). */
  totalItems: number;
  /** Rows on the current page. */
  itemCount: number;
  pageSizes?: readonly number[];
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  /** Plural noun for the summary, e.g. "transactions". */
  itemLabel?: string;
  disabled?: boolean;
}

/** Server-side paging controls; the caller owns the state (normally the URL). */
export function DataTablePagination({
  page,
  pageSize,
  totalItems,
  itemCount,
  pageSizes = [10, 25, 50, 100],
  onPageChange,
  onPageSizeChange,
  itemLabel = 'rows',
  disabled = false,
}: DataTablePaginationProps) {
  const sizeId = useId();
  const pageCount = Math.max(1, Math.ceil(totalItems / pageSize));
  // A page past the end (a stale link, rows removed meanwhile) has no range to show: say so instead of
  // counting from a first row that does not exist.
  const beyond = totalItems > 0 && (page > pageCount || itemCount === 0);
  const first = totalItems === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = totalItems === 0 ? 0 : first + itemCount - 1;
  const canBack = page > 1 && !disabled;
  const canForward = page < pageCount && !disabled;
  const count = totalItems.toLocaleString('en-US');
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
      <p className="text-muted-foreground" aria-live="polite">
        {totalItems === 0
          ? `No ${itemLabel}`
          : beyond
            ? `No ${itemLabel} on page ${page.toLocaleString('en-US')}; ${count} in ${pageCount.toLocaleString('en-US')} ${pageCount === 1 ? 'page' : 'pages'}`
            : `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${count} ${itemLabel}`}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        {onPageSizeChange ? (
          <div className="flex items-center gap-2">
            <label htmlFor={sizeId} className="whitespace-nowrap">
              Rows per page
            </label>
            <NativeSelect
              id={sizeId}
              className="h-8 w-24"
              value={String(pageSize)}
              disabled={disabled}
              onChange={(e) => onPageSizeChange(Number(e.target.value))}
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        <span className="whitespace-nowrap">
          Page {page} of {pageCount}
        </span>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="First page"
            disabled={!canBack}
            onClick={() => onPageChange(1)}
          >
            <ChevronsLeft aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="Previous page"
            disabled={!canBack}
            onClick={() => onPageChange(Math.min(page - 1, pageCount))}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="Next page"
            disabled={!canForward}
            onClick={() => onPageChange(page + 1)}
          >
            <ChevronRight aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label="Last page"
            disabled={!canForward}
            onClick={() => onPageChange(pageCount)}
          >
            <ChevronsRight aria-hidden />
          </Button>
        </div>
      </div>
    </nav>
  );
}
