import 'server-only';
// Who stands behind a request, to hear of its outcome: a person's request has its requester; an API token's has
// everyone who was shown a secret of the token (they could have made the request themselves).
import { isTokenActorId } from '@/lib/approvals/service-tokens';
import type { ConsoleDb } from '@/lib/db/schema';
import { tokenOfActor } from '../service-tokens/tokens';

type Reader = Pick<ConsoleDb, 'select'>;

export async function peopleBehind(reader: Reader, requesterId: string): Promise<string[]> {
  if (!isTokenActorId(requesterId)) return [requesterId];
  const token = await tokenOfActor(reader, requesterId);
  return token ? [...token.secretSeenBy] : [];
}
