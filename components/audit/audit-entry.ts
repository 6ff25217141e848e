// One audit log entry as the page shows it: the action in words and the input as labelled values, worked
// out on the server so the browser gets no raw input and no chain fields.
import { auditInputPairs, describeAuditAction } from '@/lib/audit-actions';

export interface AuditEntryDto {
  id: number;
  /** UTC, "YYYY-MM-DD HH:MM:SS". */
  time: string;
  actorEmail: string;
  role: string;
  /** The action in words ("Approved a withdrawal") and its code (`withdraw.approve`). */
  label: string;
  action: string;
  target: string | null;
  outcome: string;
  input: Array<[string, string]>;
}

export function toAuditEntryDto(row: {
  id: number;
  at: string | Date;
  actorEmail: string;
  role: string;
  action: string;
  target: string | null;
  outcome: string;
  input: Record<string, unknown>;
}): AuditEntryDto {
  return {
    id: row.id,
    time: new Date(row.at).toISOString().replace('T', ' ').slice(0, 19),
    actorEmail: row.actorEmail,
    role: row.role,
    label: describeAuditAction(row.action).label,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    input: auditInputPairs(row.input),
  };
}
