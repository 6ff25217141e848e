import { z } from 'zod';

/** Ending one session from the sessions list (one's own, or anyone's for an admin). */
export const endSessionSchema = z.object({
  sessionId: z.uuid({ message: 'Choose a session from the list' }),
});

/** An admin ending every session of one user. */
export const endUserSessionsSchema = z.object({
  userId: z.uuid({ message: 'Choose a user from the list' }),
});
