import 'server-only';
// What the approval engine tells people outside the console: who must approve, and the requester's outcomes,
// and every configuration change carried out. Raising writes outbox rows only; a failure to write one is
// logged and never fails the step that raised it.
import { isNull } from 'drizzle-orm';
import { type ConsoleDb, type OperationRequestRow, users } from '@/lib/db/schema';
import type { AlertSink, RaisedAlert } from '../../alerts/outbox';
import { logger } from '../../logger';
import { can } from '../../permissions';
import { loadControlGraph, notIndependentOf } from '../independence';
import { operationType } from '../operations/registry';
import { peopleBehind } from '../stand-ins';

const log = logger.child({ component: 'approvals-alerts' });

const requestPath = (id: string) => `/approvals/${id}`;

export function createEngineAlerts(db: ConsoleDb, sink: AlertSink | undefined) {
  async function raise(alert: RaisedAlert) {
    if (!sink) return;
    try {
      await sink.raise(alert);
    } catch (error) {
      log.warn({ err: error, event: alert.event }, 'could not write an alert to the outbox');
    }
  }

  /**
   * Everyone who may approve the request: the kind's approvers independent of the requester (the engine
   * refuses anyone else).
   */
  async function approversOf(row: OperationRequestRow): Promise<string[]> {
    const type = operationType(row.type);
    if (!type) return [];
    const people = await db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(isNull(users.disabledAt));
    const excluded = notIndependentOf(await loadControlGraph(db), row.requesterId);
    return people
      .filter((p) => !excluded.has(p.id) && can(p.role, type.permissions.approve))
      .map((p) => p.id);
  }

  /** Who hears of a request's outcome: its requester, or for an API token's request the people who hold it. */
  const requesterOf = (row: OperationRequestRow) => peopleBehind(db, row.requesterId).catch(() => []);

  async function everyone(): Promise<string[]> {
    const rows = await db.select({ id: users.id }).from(users).where(isNull(users.disabledAt));
    return rows.map((r) => r.id);
  }

  const label = (row: OperationRequestRow) => operationType(row.type)?.label ?? 'Request';

  return {
    async approvalNeeded(row: OperationRequestRow) {
      await raise({
        event: 'approval_needed',
        userIds: await approversOf(row).catch(() => []),
        subject: `Approval needed: ${row.summary}`,
        body: `${row.requesterEmail} asked for: ${row.summary}. ${label(row)} waiting for ${row.requiredApprovals} approval${row.requiredApprovals === 1 ? '' : 's'}; you may approve or reject it.`,
        path: requestPath(row.id),
        dedupeKey: `approval-needed:${row.id}`,
      });
    },
    async requestReady(row: OperationRequestRow) {
      await raise({
        event: 'request_ready',
        userIds: await requesterOf(row),
        subject: `Your request is approved: ${row.summary}`,
        body: `Your request "${row.summary}" has every approval it needs and is being carried out.`,
        path: requestPath(row.id),
        dedupeKey: `ready:${row.id}`,
      });
    },
    /** `why` is the engine's own sentence (rejected, expired, refused upstream); `attempt` keeps retries apart. */
    async requestFailed(row: OperationRequestRow, why: string, attempt: string | number = 0) {
      await raise({
        event: 'request_failed',
        userIds: await requesterOf(row),
        subject: `Your request failed: ${row.summary}`,
        body: `${why} (${row.summary}).`,
        path: requestPath(row.id),
        dedupeKey: `failed:${row.id}:${attempt}`,
      });
    },
    async requestDuplicate(row: OperationRequestRow, reference: string, count: number) {
      await raise({
        event: 'request_duplicate',
        userIds: await requesterOf(row),
        subject: `Duplicate detected: ${row.summary}`,
        body: `${count} upstream transactions carry reference ${reference} of your request "${row.summary}". Check both and recover the extra payment.`,
        path: requestPath(row.id),
        dedupeKey: `duplicate:${row.id}`,
      });
    },
    /** A configuration change took effect: any kind the console carries out itself, whatever it changes. */
    async configurationChanged(change: { key: string; summary: string; by: string; path: string }) {
      await raise({
        event: 'configuration_changed',
        userIds: await everyone().catch(() => []),
        subject: `Configuration changed: ${change.summary}`,
        body: `${change.summary}, requested by ${change.by}, took effect.`,
        path: change.path,
        dedupeKey: `configuration:${change.key}`,
      });
    },
  };
}

export type EngineAlerts = ReturnType<typeof createEngineAlerts>;
