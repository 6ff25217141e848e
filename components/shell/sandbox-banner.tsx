import { FlaskConicalIcon } from 'lucide-react';
import { getConfig } from '@/lib/config';

/** Shown on every page while the console runs on the embedded sandbox. */
export function SandboxBanner() {
  if (!getConfig().sandboxMode) return null;
  return (
    <output className="flex items-center justify-center gap-2 bg-warning px-4 py-1.5 text-sm font-medium text-warning-foreground">
      <FlaskConicalIcon className="size-4" aria-hidden />
      Sandbox: no real funds
    </output>
  );
}
