'use client';
// Asks for an API token: what it may do, on which wallets, up to what a day, from where, until when. A second
// admin approves; the token is then shown once to the admin who asked, on the request page.
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/toast';
import { requestServiceTokenAction } from '@/lib/actions/service-tokens';
import type { RequestedChange } from '@/lib/actions/users';
import { SCOPE_WORDS, SERVICE_TOKEN_SCOPES } from '@/lib/approvals/service-tokens';
import type { ServiceTokenFormInput } from '@/lib/validation/service-tokens';
import { CheckboxGroup } from './checkbox-group';

const loadServiceTokenFormSchema = () =>
  import('@/lib/validation/service-tokens').then((m) => m.serviceTokenFormSchema);

const DEFAULTS: ServiceTokenFormInput = {
  name: '',
  scopes: ['read'],
  walletIds: [],
  dailyCapUsd: '10000',
  minApprovals: 2,
  allowedCidrs: '',
  rateLimitPerMinute: 60,
  webhookUrl: '',
  expiresInDays: 90,
};

export function NewTokenDialog({ wallets }: { wallets: Array<{ id: string; name: string }> }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner, reset } = useActionForm(
    (values) => stepUp.withStepUp(() => requestServiceTokenAction(values)),
    {
      schema: loadServiceTokenFormSchema,
      defaultValues: DEFAULTS,
      onSuccess: (data) => {
        setRequested(data);
        toast.success('Waiting for a second admin');
      },
    },
  );
  const { errors } = form.formState;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      reset(DEFAULTS);
      setRequested(null);
    }
  };

  const text = (
    id: string,
    name: keyof ServiceTokenFormInput,
    label: string,
    hint?: string,
    type = 'text',
  ) => (
    <Field id={id} label={label} hint={hint} error={errors[name]?.message}>
      <Input
        id={id}
        type={type}
        inputMode={type === 'number' ? 'numeric' : undefined}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `${id}-error` : hint ? `${id}-hint` : undefined}
        {...form.register(name)}
      />
    </Field>
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button>
          <PlusIcon aria-hidden />
          New token
        </Button>
      }
      className="max-h-[90dvh] overflow-y-auto sm:max-w-xl"
      title="New API token"
      description="For a back-office system. Its withdrawals and swaps become requests people approve; it never approves or sends money itself."
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Request token"
      pendingLabel="Requesting…"
      pending={pending}
      onCancel={() => close(false)}
      done={
        requested
          ? {
              title: 'Token requested',
              description:
                'A second admin approves it; the token is then shown to you, once, on the request page.',
              content: <RequestedChangeNotice change={requested} />,
              onDone: () => close(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
      {text('token-name', 'name', 'Name', 'The system that will use it, e.g. Payroll')}
      <CheckboxGroup
        control={form.control}
        name="scopes"
        legend="Scopes"
        error={errors.scopes?.message}
        options={SERVICE_TOKEN_SCOPES.map((s) => ({
          value: s,
          label: SCOPE_WORDS[s].label,
          description: SCOPE_WORDS[s].description,
        }))}
      />
      <CheckboxGroup
        control={form.control}
        name="walletIds"
        legend="Wallets"
        error={errors.walletIds?.message}
        empty="No wallet is connected yet: connect one under Wallet connections first."
        options={wallets.map((w) => ({ value: w.id, label: w.name, description: w.id }))}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {text('token-cap', 'dailyCapUsd', 'Daily cap (USD)', 'Over any 24 hours, all its requests')}
        {text(
          'token-approvals',
          'minApprovals',
          'Approvals per request',
          'At least; the policy may ask more',
          'number',
        )}
        {text('token-rate', 'rateLimitPerMinute', 'Calls per minute', undefined, 'number')}
        {text('token-days', 'expiresInDays', 'Expires after (days)', undefined, 'number')}
      </div>
      <Field
        id="token-networks"
        label="Networks it may call from"
        hint="One CIDR per line, e.g. 203.0.113.0/24. Empty: any network."
        error={errors.allowedCidrs?.message}
      >
        <Textarea
          id="token-networks"
          rows={2}
          spellCheck={false}
          aria-invalid={Boolean(errors.allowedCidrs)}
          {...form.register('allowedCidrs')}
        />
      </Field>
      {text(
        'token-webhook',
        'webhookUrl',
        'Webhook URL (optional)',
        'Where request changes are posted, signed. Empty: the system polls.',
        'url',
      )}
    </FormDialog>
  );
}
