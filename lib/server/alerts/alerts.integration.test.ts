// Alerts outside the console, end to end inside one process: a real SMTP server and a real HTTP receiver,
// the approval engine against the embedded sandbox, the outbox, the worker with its retries, and the
// webhook-health check against a custody webhook receiver that fails.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import { alertAttempts, alertOutbox, users, walletConnections } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { ALERT_EVENTS } from '@/lib/validation/alerts';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { masterWithdrawal } from '@/test/payloads';
import { createApprovalEngine, type EngineActor } from '../approvals/engine';
import { endpointHealth } from '../webhook-health';
import { failedDeliveriesSince } from '../webhooks';
import { checkWebhookStreaks } from './checks';
import { outboundRules, outboundUrlProblem } from './outbound';
import { createAlertOutbox } from './outbox';
import { createAlertSenders } from './senders';
import { saveAlertSettings } from './settings';
import { deliverDueAlerts, sealedChatOpener } from './worker';

const ORIGIN = 'https://console.example.com';
const KEY = Buffer.alloc(32, 3);
const RULES = outboundRules('127.0.0.1/32', false);

// --- the outside world: an SMTP server and two HTTP receivers ---

interface Mail {
  to: string[];
  text: string;
}
const mails: Mail[] = [];
let smtp: SMTPServer;
let smtpPort: number;

/** Quoted-printable as mail clients undo it: soft line breaks and escaped bytes. */
function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

type Mode = 'ok' | 'fail' | 'hang';
interface Receiver {
  url: string;
  mode: Mode;
  posts: Array<{ text: string }>;
  hits: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const hanging: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    mode: 'ok',
    posts: [],
    hits: 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      receiver.hits++;
      if (receiver.mode === 'hang') {
        hanging.push(res);
        return;
      }
      if (receiver.mode === 'fail') {
        res.writeHead(500).end('down');
        return;
      }
      if (req.headers['content-type']?.includes('application/json')) receiver.posts.push(JSON.parse(body));
      res.writeHead(200).end('ok');
    });
  });
  // Idle kept-alive connections stay open past any pause in a test (Node closes them after 5 s): a delivery sent on
  // one just as the receiver closed it would fail with a reset, and the sandbox here does not retry.
  server.keepAliveTimeout = 180_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/T000/B000/secret`;
  return receiver;
}

// --- the console: database, sandbox, engine ---

const dataDir = mkdtempSync(path.join(tmpdir(), 'alerts-it-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let chat: Receiver;
let custodyReceiver: Receiver;

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => sandbox.fetch(url, init),
  });
}

const outbox = () => createAlertOutbox(database.db, { origin: ORIGIN });
const engine = () =>
  createApprovalEngine({ db: database.db, connectionFor, unknownOutcomeWindowMs: 0, alerts: outbox() });
const senders = () =>
  createAlertSenders({
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    from: 'Custody Console <alerts@example.com>',
    rules: RULES,
    timeoutMs: 2_000,
  });
const deliver = (now?: Date) =>
  deliverDueAlerts({
    db: database.db,
    senders: senders(),
    openChatUrl: sealedChatOpener(KEY),
    retry: { maxAttempts: 5, baseMs: 1_000, capMs: 8_000 },
    ...(now ? { now: () => now } : {}),
  });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

async function subscribe(person: EngineActor, channels: { email?: boolean; chat?: boolean }) {
  const saved = await saveAlertSettings(
    database.db,
    person.id,
    {
      emailEnabled: channels.email === true,
      email: channels.email ? person.email : '',
      emailEvents: [...ALERT_EVENTS],
      chatEnabled: channels.chat === true,
      chatUrl: channels.chat ? chat.url : '',
      chatEvents: [...ALERT_EVENTS],
    },
    { key: KEY, rules: RULES },
  );
  expect(saved).toEqual({ ok: true });
}

let requester: EngineActor;
let approver: EngineActor;
let otherApprover: EngineActor;
let viewer: EngineActor;
let usdc: { id: string; decimals: number; symbol: string };

const payload = (amount: string) => masterWithdrawal(usdc, amount);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: decodeMail(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  chat = await startReceiver();
  custodyReceiver = await startReceiver();

  database = await createTestDatabase();
  sandbox = await createSandbox({
    db: database.db,
    dbKind: database.handle.kind,
    encryptionKey: Buffer.alloc(32, 7),
    seed: 'alerts-test',
    blockTimeMs: 200,
    // The wallets' webhooks go over real HTTP to a receiver the test can break.
    webhookUrl: custodyReceiver.url,
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://sandbox.internal/sandbox',
    dataDir,
    fetch: globalThis.fetch,
  });
  creds = await sandbox.credentials();
  // The withdrawals here pay an address book entry past its cooling-off (the destination policy).
  await trustRecipients(database.db, creds.wallets[0]!.id, ['0x00000000000000000000000000000000000000aa']);
  const asset = creds.wallets[0]!.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  requester = await addUser('requester@example.com', 'finance');
  approver = await addUser('approver@example.com', 'finance');
  otherApprover = await addUser('admin@example.com', 'admin');
  viewer = await addUser('viewer@example.com', 'viewer');
  await subscribe(requester, { email: true, chat: true });
  await subscribe(approver, { email: true, chat: true });
  await subscribe(otherApprover, { email: true });
  await subscribe(viewer, { email: true, chat: true });
});

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  await chat?.close();
  await custodyReceiver?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  mails.length = 0;
  chat.posts.length = 0;
  chat.mode = 'ok';
  // Each test starts from an empty outbox: what it asserts was raised by its own steps.
  await database.db.delete(alertOutbox);
});

/** The request page a deep link names, checked against the console's own routes. */
function requestIdOfLink(link: string): string {
  const url = new URL(link);
  expect(url.origin).toBe(ORIGIN);
  const match = /^\/approvals\/([0-9a-f-]{36})$/.exec(url.pathname);
  expect(match).not.toBeNull();
  expect(existsSync(path.join(process.cwd(), 'app/(console)/approvals/[requestId]/page.tsx'))).toBe(true);
  return match![1]!;
}

const linkIn = (text: string) => /Open in the console: (\S+)/.exec(text)?.[1] ?? '';

describe('alerts outside the console', () => {
  it('a new request emails and posts to its approvers, with a deep link to it, and to nobody else', async () => {
    const created = await engine().create(requester, 'withdraw', creds.wallets[0]!.id, payload('1.25'));
    expect(created.ok).toBe(true);
    const id = created.ok ? created.data.id : '';

    const round = await deliver();
    expect(round).toEqual({ sent: 3, failed: 0 });

    // Email: the two approvers, never the requester or a viewer.
    const recipients = mails.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([otherApprover.email, approver.email].sort());
    const mail = mails.find((m) => m.to.includes(approver.email))!;
    expect(mail.text).toContain('Subject: Approval needed:');
    expect(requestIdOfLink(linkIn(mail.text))).toBe(id);

    // Chat: only the approver among those with a chat webhook; Slack's `{ text }`.
    expect(chat.posts).toHaveLength(1);
    expect(chat.posts[0]!.text).toContain('Approval needed');
    expect(requestIdOfLink(linkIn(chat.posts[0]!.text))).toBe(id);
    // Nothing secret travels: not the webhook's own URL, not an API key.
    expect(chat.posts[0]!.text).not.toContain('/hook/');
    expect(chat.posts[0]!.text).not.toContain(creds.wallets[0]!.apiKey);

    const rows = await database.db.select().from(alertOutbox).where(eq(alertOutbox.event, 'approval_needed'));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    expect(rows.map((r) => r.userId)).not.toContain(requester.id);
  });

  it('a failing channel is retried with backoff until the receiver recovers, and never holds up approving', async () => {
    chat.mode = 'hang';
    const e = engine();
    const created = await e.create(requester, 'withdraw', creds.wallets[0]!.id, payload('2.5'));
    const id = created.ok ? created.data.id : '';
    // A round is under way, stuck on a webhook that does not answer...
    const stuck = deliver();
    await vi.waitFor(() => expect(chat.hits).toBeGreaterThan(0));
    // ...and the approver approves meanwhile: the decision does not wait for any alert.
    const approved = await e.approve(approver, id);
    expect(approved.ok).toBe(true);
    expect(approved.ok && approved.data.status).not.toBe('PENDING_APPROVAL');
    const first = await stuck;
    expect(first.failed).toBe(1);

    const [row] = await database.db
      .select()
      .from(alertOutbox)
      .where(and(eq(alertOutbox.channel, 'chat'), eq(alertOutbox.event, 'approval_needed')))
      .limit(1);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'The webhook did not answer in time',
    });

    // Not due yet: nothing is tried before the backoff has passed.
    chat.mode = 'fail';
    await deliver(new Date(row!.nextAttemptAt.getTime() - 1));
    const [untouched] = await database.db.select().from(alertOutbox).where(eq(alertOutbox.id, row!.id));
    expect(untouched!.attempts).toBe(1);
    await deliver(new Date(row!.nextAttemptAt.getTime() + 1));
    const [afterSecond] = await database.db.select().from(alertOutbox).where(eq(alertOutbox.id, row!.id));
    expect(afterSecond).toMatchObject({
      status: 'pending',
      attempts: 2,
      lastError: 'The webhook answered 500',
    });
    // Exponential: the second wait is twice the first.
    expect(afterSecond!.nextAttemptAt.getTime() - (row!.nextAttemptAt.getTime() + 1)).toBe(2_000);

    chat.mode = 'ok';
    await deliver(new Date(afterSecond!.nextAttemptAt.getTime() + 1));
    const [sent] = await database.db.select().from(alertOutbox).where(eq(alertOutbox.id, row!.id));
    expect(sent).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(chat.posts.some((p) => p.text.includes('Approval needed'))).toBe(true);
    const tries = await database.db.select().from(alertAttempts).where(eq(alertAttempts.outboxId, row!.id));
    expect(tries.map((t) => t.ok)).toEqual([false, false, true]);
    // Meanwhile the requester heard that the request went through its approvals.
    expect(mails.some((m) => m.to.includes(requester.email) && m.text.includes('is approved'))).toBe(true);
  });

  it('gives up after the maximum number of tries', async () => {
    chat.mode = 'fail';
    await outbox().raise({
      event: 'webhook_failing',
      userIds: [approver.id],
      subject: 'Given up',
      body: 'x',
      path: '/',
      dedupeKey: 'give-up',
    });
    let at = new Date();
    for (let i = 0; i < 5; i++) {
      await deliver(at);
      at = new Date(at.getTime() + 10_000);
    }
    const [row] = await database.db
      .select()
      .from(alertOutbox)
      .where(and(eq(alertOutbox.dedupeKey, 'give-up'), eq(alertOutbox.channel, 'chat')))
      .limit(1);
    expect(row).toMatchObject({ status: 'failed', attempts: 5 });
    expect((await deliver(new Date(at.getTime() + 60_000))).failed).toBe(0);
  });

  it('with the custody webhook receiver failing, the endpoint streak rises and one alert is sent per streak', async () => {
    custodyReceiver.mode = 'fail';
    const streakStarted = new Date();
    const wallet = creds.wallets[0]!;
    const child = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep)!;
    const client = createCustodyClient({
      baseUrl: 'http://sandbox.internal/sandbox',
      fetch: sandbox.fetch,
      apiKey: wallet.apiKey,
    });
    const streak = async () =>
      endpointHealth(
        (await client.webhooks.list({ walletId: wallet.id, page: 1, limit: 100 })).data,
        new Date(),
      ).failureStreak;
    const deposit = async () => {
      const res = await sandbox.handle(
        new Request('http://sandbox.internal/sandbox/control/deposits', {
          method: 'POST',
          headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ addressId: child.id, assetId: usdc.id, amount: '1' }),
        }),
      );
      expect(res.status).toBe(200);
      await sandbox.drain();
    };
    const checks = {
      db: database.db,
      sink: outbox(),
      clientFor: async (walletId: string) => createCustodyClient((await connectionFor(walletId))!),
      streakThreshold: 3,
      pendingMinutes: 30,
      gasMinBalance: '0',
    };

    // The checks watch the wallets connected to the console.
    await database.db.insert(walletConnections).values({
      id: wallet.id,
      name: 'Treasury',
      blockchain: 'ethereum',
      network: 'testnet',
      address: '0x0000000000000000000000000000000000000001',
      apiKeySealed: 'sealed',
      apiKeyLast4: 'abcd',
      createdBy: 'test',
    });
    await deposit();
    const low = await streak();
    expect(low).toBeGreaterThan(0);
    await checkWebhookStreaks({ ...checks, streakThreshold: low + 100 });
    expect(await database.db.select().from(alertOutbox)).toHaveLength(0);

    while ((await streak()) < 3) await deposit();
    expect(await streak()).toBeGreaterThan(low);
    expect(custodyReceiver.hits).toBeGreaterThanOrEqual(3);

    await checkWebhookStreaks(checks);
    await deliver();
    const failing = chat.posts.filter((p) => p.text.includes('Webhook endpoint failing'));
    // Everyone subscribed hears it: the approver, the requester and the viewer by chat.
    expect(failing).toHaveLength(3);
    expect(new URL(linkIn(failing[0]!.text)).pathname).toBe(`/wallets/${wallet.id}/webhooks`);
    expect(mails.filter((m) => m.text.includes('Webhook endpoint failing'))).toHaveLength(4);

    // Once per streak: the streak grows, no new alert.
    await deposit();
    await checkWebhookStreaks(checks);
    expect((await deliver()).sent).toBe(0);

    // The receiver recovers: "resend every failed delivery since" sends each failed one once, and then
    // nothing is left failing.
    custodyReceiver.mode = 'ok';
    const failed = await failedDeliveriesSince(client, wallet.id, streakStarted);
    expect(failed.transactionIds.length).toBeGreaterThanOrEqual(4);
    const posted = custodyReceiver.posts.length;
    for (const id of failed.transactionIds)
      await client.transactions.resendWebhook({ walletId: wallet.id, id });
    await sandbox.drain();
    const resent = custodyReceiver.posts
      .slice(posted)
      .map((p) => (p as unknown as { data?: { id?: string } }).data?.id);
    expect([...resent].sort()).toEqual([...new Set(resent)].sort());
    expect(new Set(resent)).toEqual(new Set(failed.transactionIds));
    expect((await failedDeliveriesSince(client, wallet.id, streakStarted)).transactionIds).toEqual([]);
    expect(await streak()).toBe(0);
  });

  it('a configuration change carried out after its second approval alerts everyone who chose that event', async () => {
    const secondAdmin = await addUser('admin2@example.com', 'admin');
    const e = engine();
    const created = await e.create(otherApprover, 'policyEdit', 'console', {
      operationType: 'swap',
      approvals: 2,
      thresholdUsd: null,
      expirySeconds: 3600,
    });
    expect(created.ok).toBe(true);
    const id = created.ok ? created.data.id : '';
    const approved = await e.approve(secondAdmin, id);
    expect(approved.ok && approved.data.status).toBe('SUCCESS');
    await deliver();
    const changed = mails.filter((m) => m.text.includes('took effect'));
    // Every subscribed person hears it (requester, approver, admin, viewer), each with a link to the change.
    expect(changed.flatMap((m) => m.to).sort()).toEqual(
      [requester.email, approver.email, otherApprover.email, viewer.email].sort(),
    );
    expect(requestIdOfLink(linkIn(changed[0]!.text))).toBe(id);
  });

  it('a chat webhook on an internal address is refused unless the allow-list names it', async () => {
    const closed = outboundRules(undefined, false);
    expect(await outboundUrlProblem('http://127.0.0.1:9/hook', closed)).toMatch(/private or internal/);
    expect(await outboundUrlProblem('http://169.254.169.254/latest/meta-data', closed)).toMatch(/private/);
    expect(await outboundUrlProblem('http://10.1.2.3/hook', closed)).toMatch(/private/);
    expect(await outboundUrlProblem('http://[::1]:9/hook', closed)).toMatch(/private/);
    expect(await outboundUrlProblem('http://user:pw@93.184.216.34/hook', closed)).toMatch(/user name/);
    expect(await outboundUrlProblem('https://93.184.216.34/hook', closed)).toBeNull();
    expect(await outboundUrlProblem('http://10.1.2.3/hook', outboundRules('10.0.0.0/8', false))).toBeNull();
    const refused = await saveAlertSettings(
      database.db,
      viewer.id,
      {
        emailEnabled: false,
        email: '',
        emailEvents: [],
        chatEnabled: true,
        chatUrl: 'http://127.0.0.1:9/hook',
        chatEvents: ['gas_low'],
      },
      { key: KEY, rules: closed },
    );
    expect(refused).toEqual({ ok: false, fieldErrors: { chatUrl: expect.stringMatching(/private/) } });
  });
});
