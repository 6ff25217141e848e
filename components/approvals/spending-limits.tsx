'use client';
// Spending limits on the policy page: the rules in force, and a form to ask for a new one. Adding or removing
// a limit is a request a second admin approves.
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { requestSpendingLimitAction, requestSpendingLimitRemovalAction } from '@/lib/actions/limits';
import type { RequestedChange } from '@/lib/actions/users';
import {
  breachWords,
  LIMIT_SCOPE_WORDS,
  LIMIT_SCOPES,
  LIMIT_WINDOWS,
  type LimitBreach,
} from '@/lib/approvals/limits';

const loadSpendingRuleFormSchema = () =>
  import('@/lib/validation/limits').then((m) => m.spendingRuleFormSchema);

export interface SpendingLimitsProps {
  rules: Array<{ id: string; description: string; onBreach: LimitBreach; extraApprovals: number }>;
  wallets: Array<{ id: string; name: string }>;
}

const FIELDS = [
  'walletId',
  'scope',
  'windowHours',
  'unit',
  'assetSymbol',
  'limit',
  'onBreach',
  'extraApprovals',
] as const;

export function SpendingLimits({ rules, wallets }: SpendingLimitsProps) {
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  // Asking for a limit or its removal asks for the second factor again when this session's last check is stale.
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner, setBanner, run } = useActionForm(
    (_, typed) => {
      setRequested(null);
      return stepUp.withStepUp(() => requestSpendingLimitAction(typed));
    },
    {
      schema: loadSpendingRuleFormSchema,
      fields: FIELDS,
      keepBannerWhilePending: true,
      onSuccess: (data) => setRequested(data),
      defaultValues: {
        walletId: wallets[0]?.id ?? '',
        scope: 'wallet',
        windowHours: '24',
        unit: 'usd',
        assetSymbol: '',
        limit: '',
        onBreach: 'approvals',
        extraApprovals: '1',
      },
    },
  );
  const { errors } = form.formState;
  const unit = useWatch({ control: form.control, name: 'unit' });
  const onBreach = useWatch({ control: form.control, name: 'onBreach' });

  function requestRemoval(ruleId: string) {
    run(async () => {
      setRequested(null);
      const result = await stepUp.withStepUp(() => requestSpendingLimitRemovalAction({ ruleId }));
      if (result.ok) {
        setBanner(null);
        setRequested(result.data);
      } else setBanner(result.error);
    });
  }

  const id = (name: string) => `limit-${name}`;
  return (
    <section aria-labelledby="limits-heading" className="grid gap-4 rounded-lg border p-4">
      <div>
        <h2 id="limits-heading" className="font-semibold">
          Spending limits
        </h2>
        <p className="text-sm text-muted-foreground">
          Withdrawals, contract writes and priced swaps waiting for approval, approved, sent or settled within
          the window count against each limit. A request that would break one needs more approvals or is
          refused, as the limit says; it is checked when it is created and again at its final approval.
        </p>
      </div>
      {rules.length === 0 ? (
        <p className="text-sm">No spending limit applies.</p>
      ) : (
        <ul aria-label="Spending limits in force" className="grid gap-2">
          {rules.map((rule) => (
            <li
              key={rule.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2"
            >
              <span className="text-sm">
                <span className="font-medium">{rule.description}</span>
                <span className="block text-muted-foreground">Above it: {breachWords(rule)}</span>
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={pending}
                onClick={() => requestRemoval(rule.id)}
                aria-label={`Request removal of ${rule.description}`}
              >
                Request removal
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form aria-label="New spending limit" className="grid gap-3" onSubmit={onSubmit} noValidate>
        <h3 className="font-medium">New spending limit</h3>
        {banner ? (
          <p role="alert" className="text-sm text-destructive">
            {banner}
          </p>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field id={id('wallet')} label="Limit: wallet" error={errors.walletId?.message}>
            <NativeSelect id={id('wallet')} {...form.register('walletId')}>
              {wallets.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
              <option value="">Every wallet</option>
            </NativeSelect>
          </Field>
          <Field id={id('scope')} label="Limit: adds up" error={errors.scope?.message}>
            <NativeSelect id={id('scope')} {...form.register('scope')}>
              {LIMIT_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {LIMIT_SCOPE_WORDS[scope]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id={id('window')} label="Limit: rolling window" error={errors.windowHours?.message}>
            <NativeSelect id={id('window')} {...form.register('windowHours')}>
              {LIMIT_WINDOWS.map((w) => (
                <option key={w.hours} value={String(w.hours)}>
                  {w.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id={id('unit')} label="Limit: counted in" error={errors.unit?.message}>
            <NativeSelect id={id('unit')} {...form.register('unit')}>
              <option value="usd">USD value</option>
              <option value="asset">One asset&apos;s amount</option>
            </NativeSelect>
          </Field>
          <Field
            id={id('amount')}
            label={unit === 'asset' ? 'Limit: amount of the asset' : 'Limit: amount (USD)'}
            error={errors.limit?.message}
          >
            <Input
              id={id('amount')}
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={Boolean(errors.limit)}
              {...form.register('limit')}
            />
          </Field>
          <Field
            id={id('asset')}
            label={unit === 'asset' ? 'Limit: asset' : 'Limit: only this asset (optional)'}
            error={errors.assetSymbol?.message}
            hint={unit === 'asset' ? 'Its symbol, such as USDC' : 'Empty: every asset'}
          >
            <Input
              id={id('asset')}
              autoComplete="off"
              aria-invalid={Boolean(errors.assetSymbol)}
              {...form.register('assetSymbol')}
            />
          </Field>
          <Field id={id('breach')} label="Limit: above it" error={errors.onBreach?.message}>
            <NativeSelect id={id('breach')} {...form.register('onBreach')}>
              <option value="approvals">More approvals</option>
              <option value="refuse">Refuse the request</option>
            </NativeSelect>
          </Field>
          {onBreach === 'approvals' ? (
            <Field id={id('extra')} label="Limit: more approvals" error={errors.extraApprovals?.message}>
              <Input
                id={id('extra')}
                inputMode="numeric"
                aria-invalid={Boolean(errors.extraApprovals)}
                {...form.register('extraApprovals')}
              />
            </Field>
          ) : null}
        </div>
        <div>
          <Button type="submit" disabled={pending}>
            Request spending limit
          </Button>
        </div>
      </form>
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      {stepUp.dialog}
    </section>
  );
}
