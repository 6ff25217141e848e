'use client';
import { PencilIcon, PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { RecipientPicker } from '@/components/address-book/recipient-picker';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormDialog } from '@/components/forms/form-dialog';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import type { RequestedChange } from '@/lib/actions/configuration-request';
import { createAddressRuleAction, updateAddressRuleAction } from '@/lib/actions/settlement';
import type { BookOption } from '@/lib/approvals/address-book';
import { ORDER_EXPLANATIONS, SETTLEMENT_ORDERS } from '@/lib/custody/constants';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import type { RuleForm } from '@/lib/validation/settlement';

// The custody API's "no bound" / "no limit" for rule amounts and slippage; people choose it, never type it.
const NO_LIMIT = '-1';

// Chains a rule may name as source or destination; the wallet's own chain comes first.

export interface RuleEditorProps {
  walletId: string;
  addressId: string;
  chainSlug: string;
  symbols: string[];
  rule?: AutoSettlementRule;
  /** The wallet's address book: the destination is picked from it by name. */
  book?: BookOption[];
}

function defaults(props: RuleEditorProps): RuleForm {
  const { rule, chainSlug, symbols } = props;
  if (rule) {
    return {
      name: rule.name,
      isActive: rule.isActive,
      order: rule.order as RuleForm['order'],
      slippageTolerance: rule.slippageTolerance,
      sourceAssets: rule.source.assets,
      sourceBlockchain: rule.source.blockchain,
      minAmount: rule.source.minAmount,
      maxAmount: rule.source.maxAmount,
      destinationBlockchain: rule.destination.blockchain,
      destinationAsset: rule.destination.asset,
      destinationAddress: rule.destination.address,
    };
  }
  return {
    name: '',
    isActive: true,
    order: 'RECOMMENDED',
    slippageTolerance: '-1',
    sourceAssets: [],
    sourceBlockchain: chainSlug,
    minAmount: '-1',
    maxAmount: '-1',
    destinationBlockchain: chainSlug,
    destinationAsset: symbols[0] ?? '',
    destinationAddress: '',
  };
}

export function RuleEditor(props: RuleEditorProps) {
  const { walletId, addressId, rule, symbols, chainSlug } = props;
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  // The wallet's own assets and blockchain: the action holds the rule to the same choices.
  const resolver = useMemo(
    () =>
      lazyZodResolver(() =>
        import('@/lib/validation/settlement').then((m) =>
          m.ruleFormSchemaFor({ symbols, chains: [chainSlug] }),
        ),
      ),
    [symbols, chainSlug],
  );
  const { form, onSubmit, pending, banner, setBanner } = useActionForm(
    // The rule changes at the service only once a second admin approves the request.
    (values: RuleForm) =>
      stepUp.withStepUp(() =>
        rule
          ? updateAddressRuleAction({ walletId, addressId, ruleId: rule.id, rule: values })
          : createAddressRuleAction({ walletId, addressId, rule: values }),
      ),
    { resolver, defaultValues: defaults(props), onSuccess: (data) => setRequested(data) },
  );
  const { errors } = form.formState;
  const chains = [chainSlug];
  const idp = rule ? `rule-${rule.id}` : 'rule-new';
  const describedBy = (name: keyof RuleForm) => (errors[name] ? `${idp}-${name}-error` : undefined);
  // One labelled text input of the form, with its hint and error wired for screen readers.
  // Called as a function (not a component) so inputs keep their identity across renders.
  const textField = ({
    name,
    label,
    hint,
    decimal,
    mono,
  }: {
    name: 'name' | 'destinationAddress';
    label: string;
    hint?: string;
    decimal?: boolean;
    mono?: boolean;
  }) => (
    <Field id={`${idp}-${name}`} label={label} hint={hint} error={errors[name]?.message}>
      <Input
        id={`${idp}-${name}`}
        inputMode={decimal ? 'decimal' : undefined}
        className={mono ? 'font-mono' : undefined}
        spellCheck={mono ? false : undefined}
        autoComplete="off"
        aria-invalid={Boolean(errors[name])}
        aria-describedby={describedBy(name) ?? (hint ? `${idp}-${name}-hint` : undefined)}
        {...form.register(name)}
      />
    </Field>
  );

  // An amount or percentage that may be open: a number typed in, or the "no limit" choice beside it.
  const boundField = ({
    name,
    label,
    noLimitLabel,
    unit,
  }: {
    name: 'slippageTolerance' | 'minAmount' | 'maxAmount';
    label: string;
    noLimitLabel: string;
    unit?: string;
  }) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => {
        const open = field.value === NO_LIMIT;
        const id = `${idp}-${name}`;
        return (
          <div className="grid content-start gap-1.5">
            <Field id={id} label={label} error={errors[name]?.message}>
              <Input
                id={id}
                ref={field.ref}
                name={field.name}
                inputMode="decimal"
                autoComplete="off"
                placeholder={open ? 'No limit' : unit}
                value={open ? '' : field.value}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
                aria-invalid={Boolean(errors[name])}
                aria-describedby={describedBy(name)}
              />
            </Field>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={open}
                onChange={(e) => field.onChange(e.target.checked ? NO_LIMIT : '')}
              />
              {noLimitLabel}
            </label>
          </div>
        );
      }}
    />
  );

  const title = rule ? `Edit rule ${rule.name}` : 'New auto-settlement rule';
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset(defaults(props));
        else {
          setRequested(null);
          setBanner(null);
        }
      }}
      trigger={
        rule ? (
          <Button variant="outline" size="sm" aria-label={`Edit rule ${rule.name}`}>
            <PencilIcon aria-hidden />
            Edit
          </Button>
        ) : (
          <Button variant="secondary" className="justify-self-start">
            <PlusIcon aria-hidden />
            Add rule
          </Button>
        )
      }
      className="max-h-[90vh] max-w-2xl overflow-y-auto"
      title={title}
      description="Deposits to this address that match the source are moved to the destination. A second admin approves the rule before it is in force."
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Request change"
      pendingLabel="Requesting…"
      pending={pending}
      onCancel={() => setOpen(false)}
      done={
        requested
          ? {
              title,
              description: 'The rule changes once a second admin approves the request.',
              content: <RequestedChangeNotice change={requested} />,
              onDone: () => setOpen(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {textField({ name: 'name', label: 'Name' })}
        <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium">
          <input type="checkbox" className="size-4" {...form.register('isActive')} />
          Active
        </label>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Order</legend>
        {SETTLEMENT_ORDERS.map((order) => (
          <label key={order} className="flex items-start gap-2 text-sm">
            <input type="radio" value={order} className="mt-0.5 size-4" {...form.register('order')} />
            <span>
              <span className="font-medium">{order}</span>
              <span className="block text-muted-foreground">{ORDER_EXPLANATIONS[order]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {boundField({
        name: 'slippageTolerance',
        label: 'Slippage tolerance (%)',
        noLimitLabel: 'No slippage limit',
        unit: '%',
      })}
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Source assets</legend>
        <div className="flex flex-wrap gap-4">
          {symbols.map((symbol) => (
            <label key={symbol} className="flex items-center gap-2 text-sm">
              <input type="checkbox" value={symbol} className="size-4" {...form.register('sourceAssets')} />
              {symbol}
            </label>
          ))}
        </div>
        {errors.sourceAssets ? (
          <p className="text-xs font-medium text-destructive">{errors.sourceAssets.message}</p>
        ) : null}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id={`${idp}-sourceBlockchain`}
          label="Source blockchain"
          error={errors.sourceBlockchain?.message}
        >
          <NativeSelect id={`${idp}-sourceBlockchain`} {...form.register('sourceBlockchain')}>
            {chains.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {boundField({ name: 'minAmount', label: 'Minimum amount', noLimitLabel: 'No minimum' })}
        {boundField({ name: 'maxAmount', label: 'Maximum amount', noLimitLabel: 'No maximum' })}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`${idp}-destinationBlockchain`}
          label="Destination blockchain"
          error={errors.destinationBlockchain?.message}
        >
          <NativeSelect id={`${idp}-destinationBlockchain`} {...form.register('destinationBlockchain')}>
            {chains.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id={`${idp}-destinationAsset`}
          label="Destination asset"
          error={errors.destinationAsset?.message}
        >
          <NativeSelect id={`${idp}-destinationAsset`} {...form.register('destinationAsset')}>
            {symbols.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      {textField({ name: 'destinationAddress', label: 'Destination address', mono: true })}
      <div>
        <RecipientPicker
          label="Pick the destination from the address book"
          options={props.book ?? []}
          onPick={(entry) =>
            form.setValue('destinationAddress', entry.address, {
              shouldValidate: true,
              shouldDirty: true,
            })
          }
        />
      </div>
    </FormDialog>
  );
}
