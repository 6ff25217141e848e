// The alert settings form's shape in zod, for the form and its action. A module of its own so that the Account
// page loads zod at the form's first validation.
import { z } from 'zod';
import { ALERT_EVENTS, type AlertSettings } from './alerts';
import { plainText } from './text';

const eventsSchema = z.array(z.enum(ALERT_EVENTS)).max(ALERT_EVENTS.length);

/** The Account form: each channel on or off, its address and its events. */
export const alertSettingsSchema = z
  .object({
    emailEnabled: z.boolean(),
    email: z.union([z.literal(''), z.email({ message: 'Enter an email address such as you@example.com' })]),
    emailEvents: eventsSchema,
    chatEnabled: z.boolean(),
    /** Empty with a chat webhook already saved: keep the saved one (its URL is never sent back to the browser). */
    chatUrl: z.union([
      z.literal(''),
      plainText()
        .trim()
        .max(500, { message: 'The webhook URL is too long' })
        .pipe(
          z.url({
            protocol: /^https?$/,
            message: 'Enter the webhook URL, such as https://hooks.slack.com/services/…',
          }),
        ),
    ]),
    chatEvents: eventsSchema,
  })
  .superRefine((value, ctx) => {
    if (value.emailEnabled && value.email === '')
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter the address alerts go to' });
  }) satisfies z.ZodType<AlertSettings, AlertSettings>;
