// Every server action and route handler of the build, called as each role and without a session: each is
// refused or allowed exactly as the permission table says, and one the table does not name fails the test.
// The actions come from the build's server reference manifest, the routes from its app paths manifest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import type { Role } from '@/lib/roles';
import { type Action, can } from '@/lib/server/permissions';
import { contextAs, type DemoRole, expect, test } from './fixtures';
import { replayAction } from './helpers/actions';

/** Who may call: a permission of the table, any signed-in person, or anyone (signing in). */
type Permission = Action | 'signed-in' | 'public';

interface ActionRule {
  permission: Permission;
  /** Arguments that reach the permission check (an input-derived permission needs a well-formed input). */
  args?: unknown[];
  /** Ends the caller's session: called after every other action. */
  endsSession?: boolean;
}

const REQUEST_ID = '00000000-0000-4000-8000-00000000e2e1';
const WITHDRAWAL = {
  walletId: 'permission-check',
  kind: 'withdraw',
  source: 'master',
  rows: [{ address: '', amount: '', assetId: '', reference: '', note: '', metadata: '' }],
};
const CONTRACT = {
  walletId: 'permission-check',
  kind: 'contractWrite',
  addressId: 'permission-check',
  calls: [{ address: '', method: 'transfer', abi: [{}], parameters: [] }],
};

/** Every server action by exported name. A request that would change something is always refused later. */
const ACTION_PERMISSIONS: Record<string, ActionRule> = {
  // Signing in and out
  signInAction: { permission: 'public', args: [{}, {}] },
  signInPasskeyOptionsAction: { permission: 'public' },
  signInEnrolmentAction: { permission: 'public' },
  // The invitation page: no session; the link's token is checked by each action
  startInvitationTotpAction: { permission: 'public' },
  acceptInvitationAction: { permission: 'public', args: [{}, {}] },
  changePasswordAction: { permission: 'signed-in', args: [{}, {}] },
  signOutAction: { permission: 'signed-in', args: [], endsSession: true },
  // Second factors and sessions: each person's own
  startTotpEnrolmentAction: { permission: 'read' },
  confirmTotpEnrolmentAction: { permission: 'read' },
  startPasskeyEnrolmentAction: { permission: 'read' },
  finishPasskeyEnrolmentAction: { permission: 'read' },
  removeFactorAction: { permission: 'read' },
  stepUpPasskeyOptionsAction: { permission: 'read' },
  verifyStepUpAction: { permission: 'read' },
  forgetStepUpAction: { permission: 'read' },
  endSessionAction: { permission: 'read' },
  // Alerts outside the console: each person's own channels
  saveAlertSettingsAction: { permission: 'read' },
  sendTestAlertAction: { permission: 'read' },
  endUserSessionsAction: { permission: 'users.manage' },
  // Approvals (an unknown request is judged as a withdrawal)
  approveRequestAction: { permission: 'withdraw.approve', args: [{ requestId: REQUEST_ID }] },
  rejectRequestAction: {
    permission: 'withdraw.approve',
    args: [{ requestId: REQUEST_ID, reason: 'not ours' }],
  },
  resubmitRequestAction: { permission: 'withdraw.approve', args: [{ requestId: REQUEST_ID }] },
  checkRequestAction: { permission: 'read', args: [{ requestId: REQUEST_ID }] },
  proposeResolutionAction: {
    permission: 'withdraw.approve',
    args: [{ requestId: REQUEST_ID, verdict: 'failed', transactionIds: [], note: 'checked the dashboard' }],
  },
  confirmResolutionAction: { permission: 'withdraw.approve', args: [{ requestId: REQUEST_ID }] },
  discardResolutionAction: { permission: 'withdraw.approve', args: [{ requestId: REQUEST_ID }] },
  cancelRequestAction: { permission: 'withdraw.request', args: [{ requestId: REQUEST_ID }] },
  markNotificationsReadAction: { permission: 'read', args: [] },
  // Money moving
  previewWithdrawalAction: { permission: 'withdraw.request', args: [WITHDRAWAL] },
  createWithdrawalRequestAction: { permission: 'withdraw.request', args: [WITHDRAWAL] },
  sourceBalancesAction: { permission: 'read' },
  verifyStatementFileAction: { permission: 'read' },
  checkPayoutFileAction: { permission: 'withdraw.request' },
  createPayoutRequestAction: { permission: 'withdraw.request' },
  lookUpWithdrawSourceAction: { permission: 'withdraw.request' },
  previewSwapAction: { permission: 'swap.request' },
  createSwapRequestAction: { permission: 'swap.request' },
  swapBalancesAction: { permission: 'swap.request' },
  checkSwapQuoteAction: { permission: 'swap.approve' },
  lookUpSwapAddressAction: { permission: 'swap.request' },
  retryTransactionAction: { permission: 'transaction.retry' },
  // Contracts and signing
  readContractCallsAction: { permission: 'contract.read' },
  estimateContractFeesAction: { permission: 'contract.read' },
  readTokenUnitsAction: { permission: 'contract.read' },
  previewContractRequestAction: { permission: 'contractWrite.request', args: [CONTRACT] },
  createContractRequestAction: { permission: 'contractWrite.request', args: [CONTRACT] },
  lookUpContractSourceAction: { permission: 'contractWrite.request' },
  previewTypedDataAction: { permission: 'typedDataSign.request' },
  createTypedDataRequestAction: { permission: 'typedDataSign.request' },
  lookUpSigningAddressAction: { permission: 'typedDataSign.request' },
  // Addresses, webhooks, settlement, whitelist, beneficiaries
  requestPrivateKeyRevealAction: {
    permission: 'privateKeyReveal.request',
    args: [{ walletId: 'permission-check', addressId: 'permission-check' }],
  },
  revealPrivateKeyAction: {
    permission: 'privateKey.reveal',
    args: [
      {
        walletId: 'permission-check',
        addressId: 'permission-check',
        password: 'not-the-password',
        requestId: '00000000-0000-4000-8000-000000000000',
      },
    ],
  },
  simulateDepositAction: { permission: 'sandbox.deposit' },
  resendWebhookAction: { permission: 'webhook.resend' },
  resendWebhooksAction: { permission: 'webhook.resend' },
  resendFailedSinceAction: { permission: 'webhook.resend' },
  // Settlement, whitelist and beneficiaries: each change is a request a second admin approves
  setWalletSettlementAction: { permission: 'settlementToggle.request' },
  createAddressRuleAction: { permission: 'settlementRule.request' },
  updateAddressRuleAction: { permission: 'settlementRule.request' },
  whitelistAddressAction: { permission: 'whitelistAdd.request' },
  removeWhitelistedAddressAction: { permission: 'whitelistRemove.request' },
  createDepositAddressAction: { permission: 'depositAddress.create' },
  deleteBeneficiaryAction: { permission: 'beneficiaryDelete.request' },
  // Address book: each change is a request a second admin approves
  requestAddressBookEntryAction: { permission: 'addressBookSave.request' },
  importAddressBookAction: { permission: 'addressBookSave.request' },
  requestCoolingOffChangeAction: { permission: 'coolingOffEdit.request' },
  // Payout schedules: a schedule is a request another person approves; pausing, resuming and ending are at once
  previewPayoutScheduleAction: { permission: 'payoutSchedule.request' },
  requestPayoutScheduleAction: { permission: 'payoutSchedule.request' },
  pausePayoutScheduleAction: { permission: 'payoutSchedule.request' },
  resumePayoutScheduleAction: { permission: 'payoutSchedule.request' },
  endPayoutScheduleAction: { permission: 'payoutSchedule.request' },
  // Administration
  addUserAction: { permission: 'userCreate.request' },
  resendInvitationAction: { permission: 'users.manage' },
  requestResetLinkAction: { permission: 'userReset.request' },
  changeUserRoleAction: { permission: 'userRole.request' },
  disableUserAction: { permission: 'users.manage' },
  enableUserAction: { permission: 'userEnable.request' },
  updatePolicyAction: { permission: 'policyEdit.request' },
  requestSpendingLimitAction: { permission: 'limitEdit.request' },
  requestSpendingLimitRemovalAction: { permission: 'limitEdit.request' },
  // Lifting the freeze (a request): freezing itself takes effect at once, so it is not called here.
  setFreezeAction: { permission: 'freezeLift.request', args: [{ enabled: false }] },
  connectWalletAction: { permission: 'walletConnect.request' },
  rotateWalletKeyAction: { permission: 'walletRotate.request' },
  recheckCapabilitiesAction: { permission: 'wallets.manage' },
  removeWalletAction: { permission: 'walletRemove.request' },
  verifyAuditChainAction: { permission: 'audit.view', args: [] },
  // API tokens: made and rotated through a second admin, revoked at once, shown once to the requester
  requestServiceTokenAction: { permission: 'serviceTokenCreate.request' },
  rotateServiceTokenAction: { permission: 'serviceTokenRotate.request' },
  revokeServiceTokenAction: { permission: 'serviceToken.revoke' },
  revealServiceTokenAction: { permission: 'serviceTokenCreate.request' },
};

/** How a route is called and who may call it; `token`, `signature` and `api-key` routes refuse every session. */
interface RouteRule {
  permission: Permission | 'token' | 'signature' | 'api-key';
  method?: 'GET' | 'POST';
  /** The path called instead of the app path with placeholders in its dynamic segments. */
  path?: string;
  query?: string;
}

/** Every route handler by its app path. */
const ROUTE_PERMISSIONS: Record<string, RouteRule> = {
  '/(console)/approvals/[requestId]/feed/route': { permission: 'read' },
  '/(console)/approvals/count/route': { permission: 'read' },
  '/(console)/approvals/feed/route': { permission: 'read' },
  '/(console)/audit/export.csv/route': { permission: 'audit.view' },
  '/api/auth/[...nextauth]/route': { permission: 'public', path: '/api/auth/session' },
  '/api/events/route': { permission: 'read' },
  '/api/health/route': { permission: 'public' },
  '/api/internal/users/route': { permission: 'token', method: 'POST' },
  '/api/search/route': { permission: 'read', query: '?q=abc' },
  '/api/wallets/[walletId]/addresses/[addressId]/balances/route': { permission: 'read' },
  '/api/wallets/[walletId]/addresses/[addressId]/transactions/route': { permission: 'read' },
  '/api/wallets/[walletId]/address-book/export.csv/route': { permission: 'read' },
  '/api/wallets/[walletId]/addresses/route': { permission: 'read' },
  '/api/wallets/[walletId]/route': { permission: 'read' },
  '/api/wallets/[walletId]/transactions/[transactionId]/route': { permission: 'read' },
  '/api/wallets/[walletId]/transactions/[transactionId]/webhooks/route': { permission: 'read' },
  '/api/wallets/[walletId]/statements/export.csv/route': { permission: 'read' },
  '/api/wallets/[walletId]/transactions/export.csv/route': { permission: 'read' },
  '/api/wallets/[walletId]/transactions/route': { permission: 'read' },
  '/api/wallets/[walletId]/webhooks/route': { permission: 'read' },
  '/api/webhooks/custody/route': { permission: 'signature', method: 'POST' },
  // The console API takes service tokens only: a person's session is refused like no token (401).
  '/api/v1/openapi.json/route': { permission: 'public' },
  '/api/v1/requests/route': { permission: 'token' },
  '/api/v1/requests/[requestId]/route': { permission: 'token' },
  '/api/v1/wallets/route': { permission: 'token' },
  '/api/v1/wallets/[walletId]/route': { permission: 'token' },
  '/api/v1/wallets/[walletId]/transactions/route': { permission: 'token' },
  '/api/v1/wallets/[walletId]/withdrawals/route': { permission: 'token', method: 'POST' },
  '/api/v1/wallets/[walletId]/swaps/route': { permission: 'token', method: 'POST' },
  '/sandbox/[...path]/route': { permission: 'api-key', path: '/sandbox/v1/wallets/permission-check' },
};

// ---------------------------------------------------------------- the build

const distDir = path.resolve(process.env.NEXT_DIST_DIR || '.next');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(distDir, 'server', file), 'utf8'));

interface BuiltAction {
  id: string;
  name: string;
  filename: string;
  /** A page the action is served from: its first worker's route, placeholders for dynamic segments. */
  pathname: string;
}

const fill = (segment: string) =>
  segment.startsWith('[...') ? 'permission-check/x' : segment.startsWith('[') ? 'permission-check' : segment;

/** `app/(console)/wallets/[walletId]/withdraw/page` as a URL path. */
function pathOf(appPath: string): string {
  const parts = appPath
    .replace(/^app\//, '')
    .replace(/^\//, '')
    .split('/')
    .slice(0, -1)
    .filter((s) => !(s.startsWith('(') && s.endsWith(')')))
    .map(fill);
  return `/${parts.join('/')}`;
}

function builtActions(): BuiltAction[] {
  const manifest = readJson('server-reference-manifest.json') as {
    node: Record<string, { workers: Record<string, unknown>; exportedName?: string; filename?: string }>;
  };
  return Object.entries(manifest.node).map(([id, entry]) => ({
    id,
    name: entry.exportedName ?? '(no exported name)',
    filename: entry.filename ?? '',
    pathname: pathOf(Object.keys(entry.workers)[0] ?? 'app/page'),
  }));
}

function builtRoutes(): string[] {
  const manifest = readJson('app-paths-manifest.json') as Record<string, string>;
  return Object.keys(manifest).filter((p) => p.endsWith('/route'));
}

// ---------------------------------------------------------------- the checks

const ROLES: DemoRole[] = ['admin', 'finance', 'support', 'viewer'];
type Principal = DemoRole | 'no session';

function mayCall(principal: Principal, permission: RouteRule['permission']): boolean {
  if (permission === 'public') return true;
  if (permission === 'token' || permission === 'signature' || permission === 'api-key') return false;
  if (principal === 'no session') return false;
  if (permission === 'signed-in') return true;
  // admin2 and finance2 are a second admin and finance person: the same roles.
  return can(principal.replace(/2$/, '') as Role, permission);
}

/** An action's answer refuses the caller: no permission, no session, or sent to sign in. */
const ACTION_REFUSAL = /You do not have permission|Your session has ended|Sign in again/;

async function callAction(
  request: APIRequestContext,
  action: BuiltAction,
  args: unknown[],
  signedIn: boolean,
): Promise<{ refused: boolean; answer: string }> {
  if (!signedIn) {
    // Without a session the call goes where a browser would send it, the action's own page: the proxy sends it
    // to sign in, and the action itself refuses whatever reaches it.
    const response = await request.post(action.pathname, {
      headers: {
        'next-action': action.id,
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
      },
      data: JSON.stringify(args),
      maxRedirects: 0,
    });
    const answer = await response.text();
    const location = response.headers().location ?? '';
    const toSignIn = response.status() >= 300 && response.status() < 400 && location.includes('/sign-in');
    return {
      refused: toSignIn || ACTION_REFUSAL.test(answer),
      answer: `${response.status()} ${answer.slice(0, 300)}`,
    };
  }
  const answer = await replayAction(request, { id: action.id, routerState: '' }, action.pathname, args);
  return { refused: ACTION_REFUSAL.test(answer), answer: answer.slice(0, 300) };
}

/** A route's answer refuses the caller: 401, 403, 404 for a hidden route, or a redirect to sign in. */
async function callRoute(
  cookies: string,
  baseURL: string,
  route: string,
  rule: RouteRule,
): Promise<{ refused: boolean; status: number }> {
  const url = `${baseURL}${rule.path ?? pathOf(route)}${rule.query ?? ''}`;
  const response = await fetch(url, {
    method: rule.method ?? 'GET',
    redirect: 'manual',
    headers: { cookie: cookies, ...(rule.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(rule.method === 'POST' ? { body: '{}' } : {}),
  });
  // Event streams stay open: the status is all this check needs.
  await response.body?.cancel();
  const location = response.headers.get('location') ?? '';
  const refused =
    response.status === 401 ||
    response.status === 403 ||
    (rule.permission === 'token' && response.status === 404) ||
    (rule.permission === 'signature' && response.status === 400) ||
    (response.status >= 300 && response.status < 400 && location.includes('/sign-in'));
  return { refused, status: response.status };
}

async function cookieHeader(context: BrowserContext | null): Promise<string> {
  if (!context) return '';
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

test.describe('permissions of every action and route', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the table names every action and route the build has', () => {
    const actions = builtActions();
    expect(actions.length).toBeGreaterThan(0);
    const unnamedActions = actions
      .filter((a) => !(a.name in ACTION_PERMISSIONS))
      .map((a) => `${a.name} (${a.filename})`);
    expect(unnamedActions, 'server actions missing from ACTION_PERMISSIONS').toEqual([]);
    const unnamedRoutes = builtRoutes().filter((r) => !(r in ROUTE_PERMISSIONS));
    expect(unnamedRoutes, 'route handlers missing from ROUTE_PERMISSIONS').toEqual([]);
  });

  for (const principal of [...ROLES, 'no session'] as Principal[]) {
    test(`as ${principal}: each action and route refuses or allows as the table says`, async ({
      browser,
      playwright,
      baseURL,
    }) => {
      const signedIn = principal === 'no session' ? null : await contextAs(browser, principal);
      const request = signedIn ? signedIn.context.request : await playwright.request.newContext({ baseURL });
      try {
        const mismatches: string[] = [];
        const actions = builtActions()
          .filter((a) => a.name in ACTION_PERMISSIONS)
          // Signing out ends the session the other calls use: last.
          .sort(
            (a, b) =>
              Number(ACTION_PERMISSIONS[a.name]!.endsSession ?? false) -
              Number(ACTION_PERMISSIONS[b.name]!.endsSession ?? false),
          );
        const routes = builtRoutes().filter((r) => r in ROUTE_PERMISSIONS);
        const cookies = await cookieHeader(signedIn?.context ?? null);

        for (const route of routes) {
          const rule = ROUTE_PERMISSIONS[route]!;
          const expected = mayCall(principal, rule.permission) ? 'allowed' : 'refused';
          const { refused, status } = await callRoute(cookies, baseURL!, route, rule);
          if ((refused ? 'refused' : 'allowed') !== expected)
            mismatches.push(`route ${route}: expected ${expected}, got HTTP ${status}`);
        }
        for (const action of actions) {
          const rule = ACTION_PERMISSIONS[action.name]!;
          const expected = mayCall(principal, rule.permission) ? 'allowed' : 'refused';
          const { refused, answer } = await callAction(request, action, rule.args ?? [{}], Boolean(signedIn));
          if ((refused ? 'refused' : 'allowed') !== expected)
            mismatches.push(`action ${action.name}: expected ${expected}, got ${JSON.stringify(answer)}`);
        }
        expect(mismatches).toEqual([]);
      } finally {
        if (signedIn) await signedIn.context.close();
        else await request.dispose();
      }
    });
  }
});
