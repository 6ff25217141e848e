import 'server-only';
// No lone-admin door. Configuration changes need other admins' approvals, so the console keeps at least as many
// independent admins (pairwise, nobody controls two of them: independence.ts) as the strictest configuration
// policy needs people: its approvals plus the requester. A change that would leave fewer (disabling or demoting
// an admin) is refused, when asked for and again when carried out. While the console has fewer, the only way to
// add an admin is the command-line bootstrap on the server (`npm run users`).
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { CONFIGURATION_KINDS } from '@/lib/approvals/configuration';
import { approvalPolicies, type ConsoleDb, type UserRow, users } from '@/lib/db/schema';
import { createUser } from '../users';
import { largestIndependentGroup, loadControlGraph } from './independence';

/** Every configuration kind's default policy asks one other admin (checked in operations/registry.test.ts). */
export const CONFIGURATION_DEFAULT_APPROVALS = 1;

export interface AdminQuorum {
  /** Enabled admins who are pairwise independent (the most of them). */
  independent: number;
  /** People the strictest configuration policy needs: its approvals plus the requester. */
  needed: number;
  /** Fewer independent admins than needed: configuration changes cannot be approved. */
  short: boolean;
}

type Reader = Pick<ConsoleDb, 'select' | 'execute'>;

async function adminsNeeded(reader: Reader): Promise<number> {
  const rows = await reader
    .select({ approvals: approvalPolicies.approvals })
    .from(approvalPolicies)
    .where(inArray(approvalPolicies.operationType, [...CONFIGURATION_KINDS]));
  const approvals = Math.max(CONFIGURATION_DEFAULT_APPROVALS, ...rows.map((r) => Math.floor(r.approvals)));
  return approvals + 1;
}

/** What the quorum is read from: the enabled admins, the control graph and the people the policy needs. */
async function quorumInputs(reader: Reader) {
  const admins = await reader
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)));
  return {
    ids: admins.map((a) => a.id),
    graph: await loadControlGraph(reader),
    needed: await adminsNeeded(reader),
  };
}

function quorumOf(inputs: Awaited<ReturnType<typeof quorumInputs>>, without?: string): AdminQuorum {
  const ids = inputs.ids.filter((id) => id !== without);
  const independent = largestIndependentGroup(inputs.graph, ids, inputs.needed);
  return { independent, needed: inputs.needed, short: independent < inputs.needed };
}

/** The admins' quorum now. */
export async function adminQuorum(reader: Reader): Promise<AdminQuorum> {
  return quorumOf(await quorumInputs(reader));
}

/** Refuses a change that takes `userId` out of the admins when that leaves fewer independent admins than needed. */
export async function adminLeavingRefusal(reader: Reader, userId: string): Promise<string | null> {
  const [user] = await reader
    .select({ role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (user?.role !== 'admin' || user.disabledAt) return null;
  // One read of the admins and the graph: the quorum now, and as it would be without this admin.
  const inputs = await quorumInputs(reader);
  const before = quorumOf(inputs);
  const after = quorumOf(inputs, userId);
  if (!after.short || after.independent >= before.independent) return null;
  return `This would leave ${after.independent} independent ${after.independent === 1 ? 'admin' : 'admins'}; the approval policy needs ${after.needed}. Add an independent admin first.`;
}

/**
 * The command-line bootstrap (`npm run users -- add`): while the console has fewer independent admins than the
 * policy needs, whoever runs the server adds admins; each is an account of its own, controlled by nobody in the
 * console. Once the quorum stands, people are added in the console, where other admins approve.
 */
export async function bootstrapAdmin(
  db: ConsoleDb,
  input: { email: string; name: string; role: string },
): Promise<{ ok: true; user: UserRow; oneTimePassword: string } | { ok: false; error: string }> {
  const quorum = await adminQuorum(db);
  if (!quorum.short)
    return {
      ok: false,
      error: `The console has its ${quorum.needed} independent admins: add people from Admin › Users, where another admin approves.`,
    };
  if (input.role !== 'admin')
    return {
      ok: false,
      error: 'Until the console has its admins, the command line adds admins only (--role admin).',
    };
  return createUser(db, { email: input.email, name: input.name, role: 'admin' });
}
