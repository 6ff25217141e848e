'use client';
// Where a person receives alerts outside the console (email, chat webhook) and which events each channel gets.
import { useRouter } from 'next/navigation';
import type { UseFormRegister } from 'react-hook-form';
import { FormBanner } from '@/components/forms/form-banner';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { saveAlertSettingsAction, sendTestAlertAction } from '@/lib/actions/alerts';
import {
  ALERT_EVENT_LABELS,
  ALERT_EVENTS,
  type AlertChannelView,
  type AlertSettingsInput,
} from '@/lib/validation/alerts';

const loadAlertSettingsSchema = () =>
  import('@/lib/validation/alert-schema').then((m) => m.alertSettingsSchema);

export interface AlertSettingsFormProps {
  channels: AlertChannelView[];
  /** False when the server has no SMTP_URL: email alerts would never leave. */
  emailAvailable: boolean;
}

function EventChoices({
  name,
  legend,
  register,
}: {
  name: 'emailEvents' | 'chatEvents';
  legend: string;
  register: UseFormRegister<AlertSettingsInput>;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {ALERT_EVENTS.map((event) => (
        <label key={event} className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 shrink-0" value={event} {...register(name)} />
          <span>
            {ALERT_EVENT_LABELS[event].label}
            <span className="block text-muted-foreground">{ALERT_EVENT_LABELS[event].description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function AlertSettingsForm({ channels, emailAvailable }: AlertSettingsFormProps) {
  const router = useRouter();
  const email = channels.find((c) => c.kind === 'email');
  const chat = channels.find((c) => c.kind === 'chat');
  const { form, onSubmit, pending, banner, run } = useActionForm(
    (values: AlertSettingsInput) => saveAlertSettingsAction(values),
    {
      schema: loadAlertSettingsSchema,
      defaultValues: {
        emailEnabled: email?.enabled ?? false,
        email: email?.hint ?? '',
        emailEvents: email?.events ?? ['approval_needed', 'request_failed', 'request_duplicate'],
        chatEnabled: chat?.enabled ?? false,
        chatUrl: '',
        chatEvents: chat?.events ?? ['approval_needed', 'request_failed', 'request_duplicate'],
      },
      onSuccess: () => {
        // The webhook URL is write-only: the page shows its host and last characters from now on.
        form.setValue('chatUrl', '');
        toast.success('Alert settings saved');
        router.refresh();
      },
    },
  );
  const { errors } = form.formState;

  const sendTest = () =>
    run(async () => {
      const outcome = await sendTestAlertAction({});
      if (!outcome.ok) {
        toast.error(outcome.error);
        return;
      }
      toast.success('Test alert queued');
      router.refresh();
    });

  return (
    <form onSubmit={onSubmit} className="grid gap-6" noValidate aria-label="Alert channels">
      <FormBanner message={banner} />
      <section className="grid gap-4 rounded-lg border p-4" aria-labelledby="alerts-email-heading">
        <h2 id="alerts-email-heading" className="text-base font-semibold">
          Email
        </h2>
        {emailAvailable ? null : (
          <p className="text-sm text-muted-foreground">
            This console has no mail server set up (SMTP_URL), so email alerts wait until one is.
          </p>
        )}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4" {...form.register('emailEnabled')} />
          Send alerts by email
        </label>
        <Field id="alerts-email" label="Email address" error={errors.email?.message}>
          <Input
            id="alerts-email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(errors.email)}
            aria-describedby={errors.email ? 'alerts-email-error' : undefined}
            {...form.register('email')}
          />
        </Field>
        <EventChoices name="emailEvents" legend="Email me about" register={form.register} />
      </section>
      <section className="grid gap-4 rounded-lg border p-4" aria-labelledby="alerts-chat-heading">
        <h2 id="alerts-chat-heading" className="text-base font-semibold">
          Chat webhook
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4" {...form.register('chatEnabled')} />
          Post alerts to a chat webhook
        </label>
        <Field
          id="alerts-chat-url"
          label="Webhook URL (Slack-compatible)"
          hint={
            chat
              ? `Saved: ${chat.hint}. Leave empty to keep it; the URL is never shown again.`
              : 'Receives a JSON post { "text": … } per alert. Stored encrypted, never shown again.'
          }
          error={errors.chatUrl?.message}
        >
          <Input
            id="alerts-chat-url"
            type="url"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            placeholder="https://hooks.slack.com/services/…"
            aria-invalid={Boolean(errors.chatUrl)}
            aria-describedby={errors.chatUrl ? 'alerts-chat-url-error' : 'alerts-chat-url-hint'}
            {...form.register('chatUrl')}
          />
        </Field>
        <EventChoices name="chatEvents" legend="Post about" register={form.register} />
      </section>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          Save alert settings
        </Button>
        <Button type="button" variant="outline" disabled={pending} onClick={sendTest}>
          Send a test alert
        </Button>
      </div>
    </form>
  );
}
