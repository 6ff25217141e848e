import { AlertTriangleIcon } from 'lucide-react';

/** The warnings of a review (first payment, not whitelisted, mainnet, unlimited approval...), shown alike everywhere. */
export function ReviewWarnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul
      aria-label="Warnings"
      className="grid gap-1 rounded-md border border-warning/60 bg-warning/10 p-3 text-sm"
    >
      {warnings.map((w) => (
        <li key={w} className="flex items-center gap-2">
          <AlertTriangleIcon className="size-4 shrink-0" aria-hidden />
          {/* A look-alike warning names a whole address: it wraps on a phone instead of widening the page. */}
          <span className="min-w-0 wrap-anywhere">{w}</span>
        </li>
      ))}
    </ul>
  );
}
