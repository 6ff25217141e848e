'use client';
// Asking for a payout schedule: a name, the source, when it runs (UTC), and its recipients as rows (added one
// by one, or pasted as CSV lines). The server checks every row as a payout file's; the review shows the next
// runs and one run's payments before the one request another person approves is created.
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { type Control, useFieldArray, useWatch } from 'react-hook-form';
import { RequestFlow } from '@/components/operations/request-flow';
import { useOperationRequest } from '@/components/operations/use-operation-request';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { Textarea } from '@/components/ui/textarea';
import {
  previewPayoutScheduleAction,
  requestPayoutScheduleAction,
  type ScheduleCheck,
} from '@/lib/actions/payout-schedules';
import { describeCadence, upcomingRuns, WEEKDAYS } from '@/lib/approvals/payout-schedules';
import { formatDateTime } from '@/lib/format';
import {
  MAX_SCHEDULE_ROWS,
  type PayoutScheduleValues,
  type ScheduleRecipientValues,
  scheduleTimingOf,
} from '@/lib/validation/payout-schedules';
import { PayoutProblemsTable } from './payout-tables';
import { reviewOfRowCheck } from './row-check';

export interface PayoutScheduleFormProps {
  walletId: string;
  sources: Array<{ id: string; label: string }>;
  /** The wallet's asset symbols, offered in each row's asset field. */
  assets: string[];
}

type Problems = NonNullable<ScheduleCheck['problems']>;

/** The pasted lines' reader (with papaparse) loads when lines are first added, not with the page. */
const loadLineReader = () =>
  import('@/lib/validation/payout-schedule-csv').then((m) => m.parseRecipientLines);

const EMPTY_ROW: ScheduleRecipientValues = { address: '', amount: '', asset: '', reference: '', label: '' };

/** The next runs of what the form holds now, or null while it cannot tell. */
function NextRuns({ control }: { control: Control<PayoutScheduleValues> }) {
  const [cadence, dayOfWeek, dayOfMonth, timeOfDay, startsOn] = useWatch({
    control,
    name: ['cadence', 'dayOfWeek', 'dayOfMonth', 'timeOfDay', 'startsOn'],
  });
  const timing = scheduleTimingOf({ cadence, dayOfWeek, dayOfMonth, timeOfDay, startsOn });
  const runs = upcomingRuns(timing, new Date(), 3);
  if (runs.length === 0) return null;
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {describeCadence(timing)}. Next: {runs.map((r) => formatDateTime(r)).join(', ')}.
    </p>
  );
}

export function PayoutScheduleForm({ walletId, sources, assets }: PayoutScheduleFormProps) {
  const [problems, setProblems] = useState<Problems | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string | null>(null);
  const flow = useOperationRequest<PayoutScheduleValues>({
    schema: () => import('@/lib/validation/payout-schedule-schema').then((m) => m.payoutScheduleSchema),
    defaultValues: {
      walletId,
      name: '',
      source: 'master',
      cadence: 'weekly',
      dayOfWeek: '1',
      dayOfMonth: '1',
      timeOfDay: '09:00',
      startsOn: new Date().toISOString().slice(0, 10),
      recipients: [EMPTY_ROW],
    },
    preview: async (input) => {
      setCreated(null);
      return reviewOfRowCheck(await previewPayoutScheduleAction(input), setProblems, {
        row: 'recipient',
        rows: 'recipients',
        advice: ' (listed below).',
      });
    },
    create: requestPayoutScheduleAction,
    onCreated: (id) => {
      setCreated(id);
      flow.form.reset();
    },
  });
  const { register, formState, control } = flow.form;
  const { errors } = formState;
  const recipients = useFieldArray({ control, name: 'recipients' });
  const cadence = useWatch({ control, name: 'cadence' });

  async function addPasted() {
    let parseRecipientLines: Awaited<ReturnType<typeof loadLineReader>>;
    try {
      parseRecipientLines = await loadLineReader();
    } catch {
      setPasteError('The lines could not be read: the page lost its connection. Add them again.');
      return;
    }
    const { rows, badLines, quoteError } = parseRecipientLines(pasted);
    if (quoteError) {
      setPasteError(`Line ${quoteError.line}: ${quoteError.message}`);
      return;
    }
    if (badLines.length > 0) {
      setPasteError(`Lines ${badLines.join(', ')} need at least an address, an amount and an asset.`);
      return;
    }
    if (rows.length === 0) {
      setPasteError('Paste at least one line.');
      return;
    }
    // An untouched first row gives way to the pasted ones.
    const only = recipients.fields.length === 1 ? flow.form.getValues('recipients.0') : null;
    if (only && !only.address && !only.amount) recipients.replace(rows);
    else recipients.append(rows);
    setPasteError(null);
    setPasted('');
  }

  const rowError = (i: number) => {
    const row = errors.recipients?.[i];
    return row?.message ?? row?.root?.message;
  };

  return (
    <RequestFlow
      flow={flow}
      confirmLabel="Ask for this schedule"
      notice="Nothing runs until the schedule is approved"
    >
      {created ? (
        <Alert>
          <AlertTitle>Schedule requested</AlertTitle>
          <AlertDescription>
            Another person approves it before its first run.{' '}
            <Link href={`/approvals/${created}`} className="underline underline-offset-2">
              Open the request
            </Link>
          </AlertDescription>
        </Alert>
      ) : null}
      <form onSubmit={flow.requestReview} noValidate className="grid gap-4" aria-label="New payout schedule">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="schedule-name" label="Name" error={errors.name?.message}>
            <Input
              id="schedule-name"
              autoComplete="off"
              {...register('name')}
              aria-invalid={Boolean(errors.name)}
            />
          </Field>
          <Field id="schedule-source" label="From" error={errors.source?.message}>
            <NativeSelect id="schedule-source" {...register('source')}>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="schedule-cadence" label="How often" error={errors.cadence?.message}>
            <NativeSelect id="schedule-cadence" {...register('cadence')}>
              <option value="daily">Every day</option>
              <option value="weekly">Every week</option>
              <option value="monthly">Every month</option>
              <option value="once">Once</option>
            </NativeSelect>
          </Field>
          {cadence === 'weekly' ? (
            <Field id="schedule-day-of-week" label="Day of the week" error={errors.dayOfWeek?.message}>
              <NativeSelect id="schedule-day-of-week" {...register('dayOfWeek')}>
                {WEEKDAYS.map((day, i) => (
                  <option key={day} value={String(i)}>
                    {day}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          {cadence === 'monthly' ? (
            <Field
              id="schedule-day-of-month"
              label="Day of the month"
              hint="1 to 28, so every month has it."
              error={errors.dayOfMonth?.message}
            >
              <NativeSelect id="schedule-day-of-month" {...register('dayOfMonth')}>
                {Array.from({ length: 28 }, (_, i) => (
                  <option key={i + 1} value={String(i + 1)}>
                    {i + 1}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          <Field id="schedule-time" label="Time (UTC)" error={errors.timeOfDay?.message}>
            <Input
              id="schedule-time"
              type="time"
              {...register('timeOfDay')}
              aria-invalid={Boolean(errors.timeOfDay)}
            />
          </Field>
          <Field
            id="schedule-starts-on"
            label={cadence === 'once' ? 'Date' : 'First day'}
            error={errors.startsOn?.message}
          >
            <Input
              id="schedule-starts-on"
              type="date"
              {...register('startsOn')}
              aria-invalid={Boolean(errors.startsOn)}
            />
          </Field>
        </div>
        <NextRuns control={control} />

        <fieldset className="grid min-w-0 gap-3">
          <legend className="mb-2 font-medium">Recipients (paid at each run)</legend>
          <datalist id="schedule-assets">
            {assets.map((symbol) => (
              <option key={symbol} value={symbol} />
            ))}
          </datalist>
          {recipients.fields.map((field, i) => (
            <fieldset
              key={field.id}
              className="grid min-w-0 gap-2 rounded-md border p-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.5fr)_auto] sm:items-end"
            >
              <legend className="sr-only">Recipient {i + 1}</legend>
              <Field
                id={`recipient-${i}-address`}
                label="Address"
                error={errors.recipients?.[i]?.address?.message}
              >
                <Input
                  id={`recipient-${i}-address`}
                  className="font-mono text-xs"
                  autoComplete="off"
                  spellCheck={false}
                  {...register(`recipients.${i}.address`)}
                />
              </Field>
              <Field
                id={`recipient-${i}-amount`}
                label="Amount"
                error={errors.recipients?.[i]?.amount?.message}
              >
                <Input
                  id={`recipient-${i}-amount`}
                  inputMode="decimal"
                  {...register(`recipients.${i}.amount`)}
                />
              </Field>
              <Field id={`recipient-${i}-asset`} label="Asset" error={errors.recipients?.[i]?.asset?.message}>
                <Input
                  id={`recipient-${i}-asset`}
                  list="schedule-assets"
                  {...register(`recipients.${i}.asset`)}
                />
              </Field>
              <Field
                id={`recipient-${i}-reference`}
                label="Reference"
                error={errors.recipients?.[i]?.reference?.message}
              >
                <Input id={`recipient-${i}-reference`} {...register(`recipients.${i}.reference`)} />
              </Field>
              <Field id={`recipient-${i}-label`} label="Label" error={errors.recipients?.[i]?.label?.message}>
                <Input id={`recipient-${i}-label`} {...register(`recipients.${i}.label`)} />
              </Field>
              <Button
                type="button"
                variant="outline"
                size="icon"
                disabled={recipients.fields.length === 1}
                onClick={() => recipients.remove(i)}
                aria-label={`Remove recipient ${i + 1}`}
              >
                <Trash2Icon aria-hidden />
              </Button>
              {rowError(i) ? (
                <p className="text-xs font-medium text-destructive sm:col-span-6">{rowError(i)}</p>
              ) : null}
            </fieldset>
          ))}
          {errors.recipients?.message || errors.recipients?.root?.message ? (
            <p className="text-xs font-medium text-destructive">
              {errors.recipients?.message ?? errors.recipients?.root?.message}
            </p>
          ) : null}
          <div>
            <Button
              type="button"
              variant="outline"
              disabled={recipients.fields.length >= MAX_SCHEDULE_ROWS}
              onClick={() => recipients.append(EMPTY_ROW)}
            >
              <PlusIcon aria-hidden /> Add recipient
            </Button>
          </div>
          <Field
            id="schedule-paste"
            label="Or paste CSV lines"
            hint="One recipient a line: address,amount,asset and optionally reference,label."
            error={pasteError ?? undefined}
          >
            <Textarea
              id="schedule-paste"
              rows={3}
              className="font-mono text-xs"
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
            />
          </Field>
          <div>
            <Button type="button" variant="outline" onClick={addPasted} disabled={!pasted.trim()}>
              Add pasted lines
            </Button>
          </div>
        </fieldset>

        <div>
          <Button type="submit" disabled={flow.pending} aria-busy={flow.pending || undefined}>
            {flow.pending ? 'Checking…' : 'Review schedule'}
          </Button>
        </div>
      </form>
      {problems ? (
        <section aria-labelledby="schedule-problems-heading" className="grid gap-2">
          <h3 id="schedule-problems-heading" className="font-medium">
            Recipients with problems ({problems.problemRows} of {problems.total}), by their number
          </h3>
          <PayoutProblemsTable rows={problems.rows} />
        </section>
      ) : null}
    </RequestFlow>
  );
}
