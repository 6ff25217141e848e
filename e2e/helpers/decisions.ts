// A decision made the way an insider would try it: the approval action and its "Confirm it is you" captured from
// someone's real approval, then called with another person's session and a second-factor proof of their own, so
// that what refuses them is the engine's four-eyes check, not a missing proof.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, type Request } from '@playwright/test';
import { generateSync } from 'otplib';
import { contextAs } from '../fixtures';
import { approveOnPage, type CapturedAction, captureAction, replayAction } from './actions';

/** How a request page calls an approval: the decision itself and the check of the second factor that grants it. */
export interface DecisionActions {
  approve: CapturedAction;
  verify: CapturedAction;
}

const isAction = (r: Request) => r.method() === 'POST' && Boolean(r.headers()['next-action']);
const namesPayloadHash = (r: Request) => (r.postData() ?? '').includes('"payloadHash"');

/** `approveOnPage`, also returning how the page called the approval and its check. */
async function approveOnPageCapturing(page: Page): Promise<DecisionActions> {
  const approve = page.waitForRequest((r) => isAction(r) && !namesPayloadHash(r));
  const verify = page.waitForRequest((r) => isAction(r) && namesPayloadHash(r));
  await approveOnPage(page);
  return { approve: captureAction(await approve), verify: captureAction(await verify) };
}

/**
 * Approves `requestId` as the person signed in on `as` by calling the actions directly: the approval asks for a
 * check bound to its payload hash, the check is made with the person's next code, and the approval is called
 * again. Returns the raw answer to that second call (the engine's), or to the first when the engine refused the
 * decision before asking for a check.
 */
export async function approveByCallingActions(
  as: Page,
  actions: DecisionActions,
  requestId: string,
  nextCode: () => Promise<string>,
): Promise<string> {
  const pathname = `/approvals/${requestId}`;
  const asked = await replayAction(as, actions.approve, pathname, [{ requestId }]);
  // A decision refused anyway (the requester's own, a person not independent) is refused before any check is
  // asked for: that answer is the engine's.
  // (The page's own render, sent back with the answer, names the request's payload hash too: read the refusal's.)
  const payloadHash = asked.match(/"stepUp":\{"payloadHash":"([0-9a-f]{64})"/)?.[1];
  if (!payloadHash) return asked;
  expect(asked).toContain('Confirm it is you to continue.');
  const checked = await replayAction(as, actions.verify, pathname, [{ payloadHash, code: await nextCode() }]);
  expect(checked, 'the second-factor check').toContain('"ok":true');
  return replayAction(as, actions.approve, pathname, [{ requestId }]);
}

/**
 * The codes of an authenticator app after the 30 s step `usedStep`: each step once, and one step ahead of the
 * clock at most (the console accepts one step either side).
 */
export function codesAfter(secret: string, usedStep: number): () => Promise<string> {
  let last = usedStep;
  return async () => {
    await expect
      .poll(() => Math.floor(Date.now() / 30_000), { timeout: 70_000, intervals: [250, 500, 1000] })
      .toBeGreaterThanOrEqual(last);
    last = Math.max(last + 1, Math.floor(Date.now() / 30_000));
    return generateSync({ secret, epoch: last * 30 });
  };
}

/** The demo's second admin approves a configuration request; returns how their page called the approval. */
export async function approveAsSecondAdminCapturing(
  browser: Browser,
  requestPath: string,
): Promise<DecisionActions> {
  const { page, context } = await contextAs(browser, 'admin2', requestPath);
  try {
    const actions = await approveOnPageCapturing(page);
    await expect(page.getByText('Request status: Success')).toBeVisible();
    return actions;
  } finally {
    await context.close();
  }
}

/** The approval and check actions as the build names them (its server reference manifest), for a console where
 * nobody else has approved anything to capture them from. */
export function builtDecisionActions(): DecisionActions {
  const manifest = JSON.parse(
    readFileSync(
      path.resolve(process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json'),
      'utf8',
    ),
  ) as { node: Record<string, { exportedName?: string }> };
  const idOf = (name: string) => {
    const id = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === name)?.[0];
    if (!id) throw new Error(`${name} is not in the build's server reference manifest`);
    return { id, routerState: '' };
  };
  return { approve: idOf('approveRequestAction'), verify: idOf('verifyStepUpAction') };
}
