import { SnowflakeIcon } from 'lucide-react';
import { getApprovalEngine } from '@/lib/server/approvals';

/** Shown on every page while an admin has frozen submissions. */
export async function FreezeBanner() {
  const frozen = await (await getApprovalEngine()).isFrozen().catch(() => false);
  if (!frozen) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 bg-destructive px-4 py-1.5 text-sm font-medium text-destructive-foreground"
    >
      <SnowflakeIcon className="size-4" aria-hidden />
      Submissions are frozen: nothing is sent to the custody service until an admin lifts the freeze.
    </div>
  );
}
