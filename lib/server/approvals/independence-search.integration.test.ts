// The second half of the insider search of independence.integration.test.ts (test/insider-search.ts), in a file of
// its own so that the two halves run on both workers at once, each on a console database of its own. Runs on
// PGlite, and on PostgreSQL with TEST_DATABASE_URL (scripts/test.sh).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type InsiderConsole,
  openInsiderConsole,
  SEARCHED_KINDS,
  SEQUENCES,
  STEPS,
  searchSequences,
} from '@/test/insider-search';

const state = vi.hoisted(() => ({ user: null as null | { id: string } }));
vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));
// Nobody signs in with a password here: a cheap stand-in for bcrypt (cost 12, about 250 ms a hash) keeps thousands
// of accounts affordable.
vi.mock('@/lib/server/passwords', async (original) => ({
  ...(await original<typeof import('@/lib/server/passwords')>()),
  hashPassword: async (password: string) => `test:${password}`,
}));

let world: InsiderConsole;

beforeAll(async () => {
  world = await openInsiderConsole((p) => {
    state.user = p;
  }, 'independence-test');
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const FROM = Math.ceil(SEQUENCES / 2);

describe('one insider with every credential they could have seen', () => {
  it(`never completes a money request or a configuration change with only their own accounts (sequences ${FROM + 1} to ${SEQUENCES} of ${SEQUENCES}, ${STEPS} seeded steps each)`, async () => {
    const { refusals, completed, kinds } = await searchSequences(world, FROM, SEQUENCES);
    // The search reached the interesting places: the actor tried their own accounts (more than once a sequence),
    // and honest approvals let some of their requests through.
    expect(refusals).toBeGreaterThan(SEQUENCES - FROM);
    expect(completed).toBeGreaterThan(0);
    // Every kind of request was filed: account, credential, token, rule and money changes alike.
    expect([...kinds].sort()).toEqual([...SEARCHED_KINDS].sort());
  }, 900_000);
});
