import type { Metadata } from 'next';
import { AlertSettingsForm } from '@/components/account/alert-settings-form';
import { RecentAlerts } from '@/components/account/recent-alerts';
import { PageHeader } from '@/components/shell/page-header';
import { recentAlerts } from '@/lib/server/alerts/outbox';
import { alertChannelsOf } from '@/lib/server/alerts/settings';
import { requirePage } from '@/lib/server/page-guard';
import { currentServices } from '@/lib/server/services';

export const metadata: Metadata = { title: 'Alerts' };

export default async function AlertsPage() {
  const actor = await requirePage('read');
  const services = await currentServices();
  const db = services.database.db;
  const [channels, alerts] = await Promise.all([alertChannelsOf(db, actor.id), recentAlerts(db, actor.id)]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Hear about approvals, your requests and the console's health outside the console: by email, in a chat channel, or both."
      />
      <div className="grid gap-8">
        <AlertSettingsForm channels={channels} emailAvailable={Boolean(services.config.env.SMTP_URL)} />
        <section className="grid gap-3" aria-labelledby="recent-alerts-heading">
          <h2 id="recent-alerts-heading" className="text-lg font-semibold">
            Recent alerts
          </h2>
          <RecentAlerts alerts={alerts} />
        </section>
      </div>
    </>
  );
}
