'use server';
// Alerts outside the console: a person's own channels (email, chat webhook) and a test alert to try them.
import { randomUUID } from 'node:crypto';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { defineAction, ok, refuse } from '@/lib/actions/define-action';
import { alertOutboundRules, alertSinkFor } from '@/lib/server/alerts';
import { saveAlertSettings } from '@/lib/server/alerts/settings';
import { currentServices } from '@/lib/server/services';
import { alertSettingsSchema } from '@/lib/validation/alert-schema';

/** Saves where the person receives alerts and which events each channel receives. */
export const saveAlertSettingsAction = defineAction({
  // Everyone signed in chooses their own channels; nobody else's.
  permission: 'read',
  resource: 'alerts',
  input: alertSettingsSchema,
  context: 'save alert settings',
  audit: {
    action: 'alerts.settings',
    // Which channels and events, never the addresses: a chat webhook's URL is its own secret.
    input: (input) => ({
      emailEnabled: input.emailEnabled,
      emailEvents: input.emailEvents,
      chatEnabled: input.chatEnabled,
      chatEvents: input.chatEvents,
      chatUrlChanged: input.chatUrl !== '',
    }),
    target: () => 'alerts',
  },
  run: async ({ input, actor }) => {
    const services = await currentServices();
    const saved = await saveAlertSettings(services.database.db, actor.id, input, {
      key: services.config.encryptionKey,
      rules: alertOutboundRules(services),
    });
    if (!saved.ok) return refuse('Check the highlighted fields.', { fieldErrors: saved.fieldErrors });
    revalidatePath('/account/alerts');
    return ok(undefined);
  },
});

/** Sends a test alert to each of the person's channels that is switched on. */
export const sendTestAlertAction = defineAction({
  permission: 'read',
  resource: 'alerts',
  input: z.object({}).optional(),
  context: 'send test alert',
  audit: { action: 'alerts.test', target: () => 'alerts' },
  run: async ({ actor }) => {
    const services = await currentServices();
    const queued = await alertSinkFor(services).raise({
      event: 'test',
      userIds: [actor.id],
      subject: 'Test alert from the custody console',
      body: `This is a test alert for ${actor.email}. Alerts you chose arrive like this one.`,
      path: '/account/alerts',
      dedupeKey: `test:${randomUUID()}`,
    });
    if (queued === 0) return refuse('Switch a channel on and save it first.');
    revalidatePath('/account/alerts');
    return ok({ queued });
  },
});
