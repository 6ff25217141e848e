// "Confirm it is you": the second factor asked again. Every decision (approve, reject, resubmit, a resolution)
// asks for its own check; a change an admin starts asks when the session's last check is over five minutes old.
// Each signed-in page knows where its codes come from: a demo user's authenticator apps (fixtures' signIn), or
// the app a new person enrolled (`authenticatorFor`).
import { expect, type Page, type Request } from '@playwright/test';
import { generateSync } from 'otplib';

type CodeSource = () => Promise<string>;

const sources = new WeakMap<Page, CodeSource>();

/** Where the codes of the person signed in on `page` come from. */
export function codesFor(page: Page, source: CodeSource): void {
  sources.set(page, source);
}

/**
 * The codes of one authenticator app: each 30 s step once (the console takes a code once), waiting for the
 * next step when this one is used.
 */
function authenticatorCodes(secret: string, usedStep = -1): CodeSource {
  let last = usedStep;
  return async () => {
    await expect
      .poll(() => Math.floor(Date.now() / 30_000), { timeout: 40_000, intervals: [250, 500, 1000] })
      .toBeGreaterThan(last);
    last = Math.floor(Date.now() / 30_000);
    return generateSync({ secret, epoch: last * 30 });
  };
}

/** The codes of an app enrolled on `page` (its secret; the last 30 s step used, if any), for later checks. */
export function authenticatorFor(page: Page, secret: string, usedStep?: number): void {
  codesFor(page, authenticatorCodes(secret, usedStep));
}

export const stepUpDialog = (page: Page) => page.getByRole('dialog', { name: 'Confirm it is you' });

/** How many times the action that asked has been called since the code was sent (read once its outcome shows). */
export type RanAgain = () => number;

/**
 * Confirms "Confirm it is you" from the keyboard: focus is in the code field, the code is typed and Enter sends
 * it. Should the code be refused (a later code of the same demo factor used an instant earlier by a journey
 * beside this one), the next one is typed: at most three, so a real refusal still fails. Counts the server
 * actions called from then on other than the check itself (whose input names the payload hash): the action that
 * asked must run again exactly once.
 */
export async function confirmItIsYou(page: Page): Promise<RanAgain> {
  const nextCode = sources.get(page);
  if (!nextCode)
    throw new Error('No authenticator for this page: sign in with signIn, or call authenticatorFor.');
  const dialog = stepUpDialog(page);
  // The dialog's code loads the first time it is asked for: on a busy machine that takes a while.
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  const code = dialog.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  const refused = dialog.getByText('The code is not right or was already used');
  // A refusal empties the field; while the code is being checked it still holds it.
  const state = async (): Promise<'closed' | 'refused' | 'waiting'> => {
    if (!(await dialog.isVisible())) return 'closed';
    if ((await refused.isVisible()) && (await code.inputValue().catch(() => 'gone')) === '') return 'refused';
    return 'waiting';
  };
  let calls = 0;
  const count = (request: Request) => {
    // Only whether the body names a payload hash is looked at: the code in it is never kept.
    if (request.method() === 'POST' && request.headers()['next-action'])
      if (!(request.postData() ?? '').includes('"payloadHash"')) calls++;
  };
  page.on('request', count);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    // The check is one server action; on a busy machine its answer can take longer than the default 15 s.
    await expect.poll(state, { timeout: 30_000 }).not.toBe('waiting');
    const outcome = await state();
    if (outcome === 'closed') return () => calls;
    expect(attempt, 'the step-up code was refused three times').toBeLessThan(3);
    await code.focus();
  }
}

/**
 * Runs a decision whose last click is `confirm`: the decision asks for its own check, the check is confirmed,
 * and the decision runs again. Returns once the server has answered that second run (status 200), so that a
 * context closed next does not cut the decision off before it reached the server.
 */
export async function decideWithCheck(page: Page, confirm: () => Promise<void>): Promise<void> {
  const asked = page.waitForResponse(
    (r) => r.request().method() === 'POST' && Boolean(r.request().headers()['next-action']),
    { timeout: 60_000 },
  );
  await confirm();
  const actionId = (await asked).request().headers()['next-action'];
  const answered = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      r.request().headers()['next-action'] === actionId &&
      !(r.request().postData() ?? '').includes('"payloadHash"'),
    { timeout: 90_000 },
  );
  await confirmItIsYou(page);
  expect((await answered).status()).toBe(200);
}
