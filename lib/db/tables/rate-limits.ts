import { rateLimitTable } from '../rate-limit';

/** Calls per service token per minute (and unauthenticated calls per address), shared by every console instance. */
export const rateLimitWindows = rateLimitTable('rate_limit_windows');
