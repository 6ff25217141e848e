// A payload shown as nested, collapsible sections (<details> per object), readable without a JSON editor.
import type * as React from 'react';

export interface JsonTreeProps {
  value: unknown;
  /** Label of the root section. */
  label?: string;
  /** Nested sections open up to this depth. */
  openDepth?: number;
}

function scalar(value: unknown): React.ReactNode {
  if (value === null) return <span className="text-muted-foreground">null</span>;
  if (typeof value === 'string') return <span className="break-all">&quot;{value}&quot;</span>;
  return <span className="break-all">{String(value)}</span>;
}

function Node({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string;
  value: unknown;
  depth: number;
  openDepth: number;
}) {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    return (
      <li>
        <details open={depth < openDepth}>
          <summary className="cursor-pointer rounded-sm select-none focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <span className="font-medium">{name}</span>{' '}
            <span className="text-muted-foreground">{summary}</span>
          </summary>
          {entries.length > 0 ? (
            <ul className="ml-4 border-l pl-3">
              {entries.map(([k, v]) => (
                <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
              ))}
            </ul>
          ) : null}
        </details>
      </li>
    );
  }
  return (
    <li>
      <span className="font-medium">{name}</span>: {scalar(value)}
    </li>
  );
}

export function JsonTree({ value, label = 'payload', openDepth = 1 }: JsonTreeProps) {
  return (
    <ul className="font-mono text-xs leading-relaxed">
      <Node name={label} value={value} depth={0} openDepth={openDepth} />
    </ul>
  );
}
