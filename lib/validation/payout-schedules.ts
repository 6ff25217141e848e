// A payout schedule as the form sends it, one schema for the form and its actions: a name, where the money
// leaves from, when it runs (UTC), and its recipients as rows (typed, or pasted as CSV lines).
/** Most payments in one schedule: each run is one payout request of at most this many rows. */
export const MAX_SCHEDULE_ROWS = 100;
/** Each run's reference is the row's own followed by the run's time (`-YYYYMMDDHHMM`): within the service's 64. */
export const MAX_SCHEDULE_REFERENCE = 50;
