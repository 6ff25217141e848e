import 'server-only';
// Who stands behind a request, for the four-eyes rules: a person's request has its requester; an API token's has
// everyone who was shown a secret of the token (they could have made the request themselves). Nobody behind a
// request approves it, nor anyone one of them added or promoted (the sock-puppet rule).
import { sql } from 'drizzle-orm';
import { SOCK_PUPPET_REFUSAL } from '@/lib/approvals/configuration';
import { isTokenActorId, TOKEN_HOLDER_REFUSAL } from '@/lib/approvals/service-tokens';
import { type ConsoleDb, users } from '@/lib/db/schema';
import { tokenOfActor } from '../service-tokens/tokens';

type Reader = Pick<ConsoleDb, 'select'>;

export async function peopleBehind(reader: Reader, requesterId: string): Promise<string[]> {
  if (!isTokenActorId(requesterId)) return [requesterId];
  const token = await tokenOfActor(reader, requesterId);
  return token ? [...token.secretSeenBy] : [];
}

export interface PersonLinks {
  id: string;
  createdBy: string | null;
  roleGrantedBy: string | null;
}

/** `behind`: one of the people behind the request; `puppet`: added or promoted by one of them; null: neither. */
export function standIn(person: PersonLinks, behind: readonly string[]): 'behind' | 'puppet' | null {
  if (behind.includes(person.id)) return 'behind';
  if (
    (person.createdBy && behind.includes(person.createdBy)) ||
    (person.roleGrantedBy && behind.includes(person.roleGrantedBy))
  )
    return 'puppet';
  return null;
}

/**
 * Why this person may not act on the request as its second pair of eyes (the sentence the engine answers with),
 * reading their links through `reader` (a transaction's, or the pool); null: they may. `links` skips the read
 * where the caller has them already.
 */
export async function standInRefusal(
  reader: Reader,
  personId: string,
  requesterId: string,
  links?: PersonLinks,
): Promise<string | null> {
  let person = links;
  if (!person) {
    const [me] = await reader
      .select({ createdBy: users.createdBy, roleGrantedBy: users.roleGrantedBy })
      .from(users)
      .where(sql`${users.id}::text = ${personId}`)
      .limit(1);
    person = { id: personId, createdBy: me?.createdBy ?? null, roleGrantedBy: me?.roleGrantedBy ?? null };
  }
  if (!standIn(person, await peopleBehind(reader, requesterId))) return null;
  return isTokenActorId(requesterId) ? TOKEN_HOLDER_REFUSAL : SOCK_PUPPET_REFUSAL;
}
