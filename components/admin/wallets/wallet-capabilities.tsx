'use client';
// Per wallet: which extension endpoints its custody service answers, when that was checked, and what the
// console cannot do without each one.
import { CheckIcon, RefreshCwIcon, XIcon } from 'lucide-react';
import { useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { recheckCapabilitiesAction } from '@/lib/actions/wallet-connections';
import { formatDateTime } from '@/lib/format';

interface CapabilityView {
  name: string;
  label: string;
  endpoint: string;
  without: string;
}

interface WalletCapabilitiesView {
  id: string;
  name: string;
  /** Null until the first check stored a result. */
  capabilities: Record<string, boolean> | null;
  checkedAt: string | null;
}

export interface WalletCapabilitiesProps {
  wallets: WalletCapabilitiesView[];
  definitions: CapabilityView[];
}

export function WalletCapabilities({ wallets, definitions }: WalletCapabilitiesProps) {
  if (wallets.length === 0) return null;
  return (
    <section aria-labelledby="capabilities-heading" className="grid gap-3">
      <div>
        <h2 id="capabilities-heading" className="text-lg font-semibold">
          Extension endpoints
        </h2>
        <p className="text-sm text-muted-foreground">
          The console works with the custody API&apos;s 23 endpoints alone. Where a service also answers these
          reads, pages are complete; where it does not, they say what is missing.
        </p>
      </div>
      {wallets.map((w) => (
        <WalletCapabilityCard key={w.id} wallet={w} definitions={definitions} />
      ))}
    </section>
  );
}

function WalletCapabilityCard({
  wallet,
  definitions,
}: {
  wallet: WalletCapabilitiesView;
  definitions: CapabilityView[];
}) {
  const [pending, startTransition] = useTransition();
  const headingId = `capabilities-${wallet.id}`;
  const check = () =>
    startTransition(async () => {
      const result = await recheckCapabilitiesAction({ walletId: wallet.id });
      if (!result.ok) toast.error(result.error);
      else if (!result.data.checkedAt)
        toast.error(`The custody service of ${wallet.name} did not answer; nothing was changed.`);
      else toast.success(`Extensions of ${wallet.name} checked`);
    });
  return (
    <article aria-labelledby={headingId} className="grid gap-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-medium">
            {wallet.name}
          </h3>
          <p className="text-xs text-muted-foreground">
            {wallet.checkedAt ? `Checked ${formatDateTime(wallet.checkedAt)}` : 'Not checked yet'}
          </p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={check}
          disabled={pending}
          aria-label={`Check again the extensions of ${wallet.name}`}
        >
          <RefreshCwIcon aria-hidden className={pending ? 'animate-spin' : undefined} />
          {pending ? 'Checking…' : 'Check again'}
        </Button>
      </div>
      <ul className="grid gap-2 text-sm">
        {definitions.map((d) => {
          const present = wallet.capabilities?.[d.name] === true;
          return (
            <li key={d.name} className="grid gap-0.5">
              <div className="flex items-center gap-2">
                {present ? (
                  <CheckIcon aria-hidden className="size-4 text-emerald-600" />
                ) : (
                  <XIcon aria-hidden className="size-4 text-muted-foreground" />
                )}
                <span className="font-medium">{d.label}</span>
                <span>{present ? 'answered' : 'not available'}</span>
                <code className="hidden font-mono text-xs text-muted-foreground md:inline">{d.endpoint}</code>
              </div>
              {present ? null : <p className="pl-6 text-muted-foreground">{d.without}</p>}
            </li>
          );
        })}
      </ul>
    </article>
  );
}
