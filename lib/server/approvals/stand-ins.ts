import 'server-only';
// Who stands behind a request, for the four-eyes rules: a person's request has its requester; an API token's has
// everyone who was shown a secret of the token (they could have made the request themselves). Nobody behind a
// request approves it, nor anyone one of them added or promoted (the sock-puppet rule).
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import type { ConsoleDb } from '@/lib/db/schema';
import { tokenOfActor } from '../service-tokens/tokens';

export async function peopleBehind(
  reader: Pick<ConsoleDb, 'select'>,
  requesterId: string,
): Promise<string[]> {
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
