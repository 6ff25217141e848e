import { Badge } from '@/components/ui/badge';
import { ORDER_EXPLANATIONS } from '@/lib/custody/constants';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { formatAmountRange, formatSignificant, shortAddress } from '@/lib/format';

// The custody API writes an open bound or slippage as -1.
const open = (value: string) => (value.trim() === '-1' ? null : value);

type RuleLike = Pick<
  AutoSettlementRule,
  'name' | 'isActive' | 'order' | 'slippageTolerance' | 'source' | 'destination'
> & {
  id?: string;
};

export function RuleSummary({
  rule,
  footer,
  action,
}: {
  rule: RuleLike;
  footer?: React.ReactNode;
  action?: React.ReactNode;
}) {
  const order = rule.order as keyof typeof ORDER_EXPLANATIONS;
  return (
    <section aria-label={`Rule ${rule.name}`} className="grid gap-2 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">{rule.name}</h3>
        <div className="flex items-center gap-2">
          <Badge variant={rule.isActive ? 'success' : 'secondary'}>
            {rule.isActive ? 'Active' : 'Inactive'}
          </Badge>
          {action}
        </div>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Source</dt>
        <dd>
          {rule.source.assets.join(', ')} on {rule.source.blockchain},{' '}
          {formatAmountRange(
            open(rule.source.minAmount),
            open(rule.source.maxAmount),
            // One source asset names the unit; several share the bounds, each in its own unit.
            rule.source.assets.length === 1 ? rule.source.assets[0] : '',
          )}
        </dd>
        <dt className="text-muted-foreground">Destination</dt>
        <dd>
          {rule.destination.asset} on {rule.destination.blockchain} to{' '}
          <span className="font-mono" title={rule.destination.address}>
            {shortAddress(rule.destination.address)}
          </span>
        </dd>
        <dt className="text-muted-foreground">Order</dt>
        <dd>
          {rule.order}
          {ORDER_EXPLANATIONS[order] ? (
            <span className="text-muted-foreground"> · {ORDER_EXPLANATIONS[order]}</span>
          ) : null}
        </dd>
        <dt className="text-muted-foreground">Slippage</dt>
        <dd>
          {open(rule.slippageTolerance) === null
            ? 'no limit'
            : `${formatSignificant(rule.slippageTolerance)}%`}
        </dd>
      </dl>
      {footer}
    </section>
  );
}
