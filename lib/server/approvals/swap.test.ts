// Swaps and typed-data signatures through the approval engine against the embedded sandbox: request,
// approve, submit once, the swap settles with its rate; the signature recovers to the signing address.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TypedDataResult, TypedDataReview } from '@/lib/approvals/signing';
import type { SwapResult, SwapReview } from '@/lib/approvals/swaps';
import { createCustodyClient, type TransportOptions } from '@/lib/custody';
import { operationRequests, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { SwapPayload } from '@/lib/validation/swaps';
import { buildPermit } from '@/lib/validation/typed-data';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from './engine';
import { compareSwapQuote } from './operations/swap';
import type { TypedDataPayload } from './operations/typed-data-sign';

const dataDir = mkdtempSync(path.join(tmpdir(), 'approvals-swap-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let float: SandboxCredentials['wallets'][number]['addresses'][number];
let admin: EngineActor;
let finance: EngineActor;
let finance2: EngineActor;
const swapCalls: string[] = [];

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: async (url: string, init: RequestInit) => {
      if (init.method === 'POST' && url.endsWith('/swaps/execute')) swapCalls.push(url);
      return sandbox.fetch(url, init);
    },
  });
}
const engine = () => createApprovalEngine({ db: database.db, connectionFor, unknownOutcomeWindowMs: 0 });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'swap-test' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  float = wallet.addresses.find((a) => a.name === 'Operating float 1')!;
  admin = await addUser('admin@example.com', 'admin');
  finance = await addUser('finance@example.com', 'finance');
  finance2 = await addUser('finance2@example.com', 'finance');
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A swap of USDC to USDT from the operating float, at an order. */
function usdcToUsdt(amount: string, order: SwapPayload['order'] = 'RECOMMENDED'): SwapPayload {
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;
  return {
    addressId: float.id,
    fromAssetId: usdc.id,
    fromSymbol: 'USDC',
    fromDecimals: usdc.decimals,
    toAssetId: usdt.id,
    toSymbol: 'USDT',
    toDecimals: usdt.decimals,
    amount,
    order,
  };
}

describe('swap operation', () => {
  it('reviews with an expected rate, submits once on approval and settles with rate and toAmount', async () => {
    const payload: SwapPayload = { ...usdcToUsdt('2', 'CHEAPEST'), metadata: { invoice: 'A-12' } };
    const e = engine();
    const support = await addUser('support@example.com', 'support');
    expect((await e.create(support, 'swap', wallet.id, payload)).ok).toBe(false);
    const created = await e.create(finance, 'swap', wallet.id, payload);
    if (!created.ok) throw new Error(created.error);
    const view = await e.view(created.data.id);
    const review = view?.request.review as unknown as SwapReview;
    expect(review.kind).toBe('swap');
    expect(review.expectedRate).toBe('1');
    expect(review.source.address).toBe(float.address);
    expect(review.orderExplanation).toMatch(/Lowest fee/);
    // The service's own quote, kept as it answered: 0.2% spread, 1% slippage for CHEAPEST.
    expect(review.quote).toMatchObject({
      rate: '0.998',
      toAmount: '1.996',
      minAmount: '1.97604',
      slippage: '1',
    });
    expect(review.quoteNote).toBeNull();
    // The quote's network fee is in the chain's own coin, named beside it.
    expect(review.feeSymbol).toBe('ETH');

    expect((await e.approve(finance, created.data.id)).ok).toBe(false);
    const approved = await e.approve(finance2, created.data.id);
    expect(approved.ok && approved.data.status).toBe('SUBMITTED');
    expect(swapCalls).toHaveLength(1);
    const result = (await e.view(created.data.id))?.request.result as unknown as SwapResult;
    // CHEAPEST carries a 0.2% spread in the sandbox's rate table.
    expect(result.rate).toBe('0.998');
    expect(result.toAmount).toBe('1.996');
    expect(result.toAsset?.symbol).toBe('USDT');
    // Approved within the quote's life: sent as approved, no second quote.
    expect(result.requote).toBeNull();

    await sandbox.drain();
    expect(await e.followUpRound(created.data.id, { force: true })).toBe('SUCCESS');
  });
});

describe('swap quotes at submission', () => {
  /** Creates a swap request and makes its stored quote expired (and, optionally, its minimum higher). */
  async function expiredQuoteRequest(amount: string, minAmount?: string) {
    const e = engine();
    const created = await e.create(finance, 'swap', wallet.id, usdcToUsdt(amount));
    if (!created.ok) throw new Error(created.error);
    const [row] = await database.db
      .select({ review: operationRequests.review })
      .from(operationRequests)
      .where(eq(operationRequests.id, created.data.id));
    const review = row!.review as unknown as SwapReview;
    const quote = { ...review.quote!, expiresAt: new Date(Date.now() - 1_000).toISOString() };
    if (minAmount) quote.minAmount = minAmount;
    await database.db
      .update(operationRequests)
      .set({ review: { ...review, quote } as unknown as Record<string, unknown> })
      .where(eq(operationRequests.id, created.data.id));
    return { e, id: created.data.id, quote };
  }

  it('asks the service again when the approved quote has expired, and sends once when it still holds', async () => {
    const { e, id, quote } = await expiredQuoteRequest('3');
    const sent = swapCalls.length;
    const approved = await e.approve(finance2, id);
    expect(approved.ok && approved.data.status).toBe('SUBMITTED');
    expect(swapCalls.length - sent).toBe(1);
    const result = (await e.view(id))?.request.result as unknown as SwapResult;
    expect(result.requote?.before).toEqual(quote);
    expect(result.requote?.after.toAmount).toBe('2.991');
    expect(result.requote?.difference).toBe('0');
    expect(Date.parse(result.requote!.after.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('shows an approver the current quote beside the approved one before approving', async () => {
    const { id } = await expiredQuoteRequest('5', '4.99');
    const view = await engine().view(id);
    const compared = await compareSwapQuote(
      createCustodyClient((await connectionFor(wallet.id))!),
      wallet.id,
      view!.request.payload as unknown as SwapPayload,
      view!.request.review,
    );
    expect(compared.after.toAmount).toBe('4.985');
    expect(compared.difference).toBe('0');
    expect(compared.holds).toBe(false);
    expect(compared.before?.minAmount).toBe('4.99');
  });

  it('sends nothing when the fresh quote is below the approved minimum, and says both amounts', async () => {
    const { e, id } = await expiredQuoteRequest('4', '3.99');
    const sent = swapCalls.length;
    const approved = await e.approve(finance2, id);
    expect(approved.ok && approved.data.status).toBe('SUBMIT_FAILED');
    expect(swapCalls.length).toBe(sent);
    const view = await e.view(id);
    expect(view?.request.lastError).toBe(
      'The approved quote had expired; the new quote gives 3.988 USDT, below the approved minimum of 3.99 USDT. Nothing was sent; request the swap again to approve the new quote.',
    );
  });

  it('reviews without a quote against a service that has none, and says so', async () => {
    const control = (body: unknown) =>
      sandbox.fetch('http://sandbox.internal/sandbox/control/faults', {
        method: 'POST',
        headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await control({ specOnly: true });
    try {
      const preview = await engine().preview(finance, 'swap', wallet.id, usdcToUsdt('1'));
      if (!preview.ok) throw new Error(preview.error);
      const review = preview.data.review as unknown as SwapReview;
      expect(review.quote).toBeNull();
      expect(review.quoteNote).toBe(
        'The custody service gives no swap quotes; the expected figures below come from USD prices.',
      );
    } finally {
      await control({ specOnly: false });
    }
  });
});

describe('swap review text', () => {
  it('formats the amount in the summary and the balance in the warning', async () => {
    const preview = await engine().preview(finance, 'swap', wallet.id, usdcToUsdt('987654321.5'));
    if (!preview.ok) throw new Error(preview.error);
    expect(preview.data.summary).toBe('Swap 987,654,321.5 USDC to USDT');
    const review = preview.data.review as unknown as SwapReview;
    const warning = review.warnings.find((w) => w.startsWith('The amount exceeds'));
    expect(warning).toMatch(/^The amount exceeds the address's balance of \d{1,3}(,\d{3})*(\.\d+)? USDC\.$/);
  });
});

describe('typed-data signing operation', () => {
  /** The spender the permits allow: an address book entry past its cooling-off (the destination policy). */
  const SPENDER = '0x00000000000000000000000000000000000000aa';

  async function permitPayload(value = '250', spender = SPENDER): Promise<TypedDataPayload> {
    const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
    const built = buildPermit({
      name: 'USD Coin',
      version: '2',
      chainId: '11155111',
      verifyingContract: usdc.address,
      decimals: usdc.decimals,
      owner: float.address,
      spender,
      value,
      nonce: '0',
      deadline: String(Math.floor(Date.now() / 1000) + 60 * 86400),
    });
    if (!built.ok) throw new Error(built.error);
    return { addressId: float.id, signer: float.address, ...built.value };
  }

  beforeAll(() => trustRecipients(database.db, wallet.id, [SPENDER]));

  it('is requested by an admin, reviewed in token terms and USD, and the signature recovers to the address', async () => {
    const e = engine();
    const payload = await permitPayload();
    expect((await e.create(finance, 'typedDataSign', wallet.id, payload)).ok).toBe(false);
    const created = await e.create(admin, 'typedDataSign', wallet.id, payload);
    if (!created.ok) throw new Error(created.error);
    const view = await e.view(created.data.id);
    const review = view?.request.review as unknown as TypedDataReview;
    expect(review.description.kind).toBe('permit');
    expect(review.description.token.symbol).toBe('USDC');
    // Priced like a withdrawal of 250 USDC: the allowance counts for the threshold and the spending limits.
    expect(Number(review.valueUsd)).toBeGreaterThan(200);
    expect(Number(view?.request.amountUsd)).toBe(Number(review.valueUsd));
    expect(view?.request.requiredApprovals).toBe(1);
    expect(review.warnings.join(' ')).toMatch(/more than 30 days/);

    const approved = await e.approve(finance, created.data.id);
    expect(approved.ok && approved.data.status).toBe('SUCCESS');
    const result = (await e.view(created.data.id))?.request.result as unknown as TypedDataResult;
    expect(result.verified).toBe(true);
    expect(result.recoveredAddress?.toLowerCase()).toBe(float.address.toLowerCase());
    expect(result.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect([27, 28]).toContain(result.v);
  });

  it('marks a signature that does not recover to the stated signer as failed', async () => {
    const e = engine();
    const other = wallet.addresses.find((a) => a.name === 'Operating float 2')!;
    // The payload claims another address signs: the console's recovery check must catch it.
    const payload = { ...(await permitPayload()), signer: other.address };
    const created = await e.create(admin, 'typedDataSign', wallet.id, payload);
    if (!created.ok) throw new Error(created.error);
    const approved = await e.approve(finance, created.data.id);
    expect(approved.ok && approved.data.status).toBe('FAILED');
    const result = (await e.view(created.data.id))?.request.result as unknown as TypedDataResult;
    expect(result.verified).toBe(false);
    expect(result.error).toMatch(/Signature mismatch/);
  });

  it('needs the highest quorum for what it cannot price: an unlimited permit, or a document that is not a permit', async () => {
    const e = engine();
    const unlimited = await e.create(admin, 'typedDataSign', wallet.id, await permitPayload('max'));
    if (!unlimited.ok) throw new Error(unlimited.error);
    const view = await e.view(unlimited.data.id);
    const review = view?.request.review as unknown as TypedDataReview;
    expect(review.valueUsd).toBeNull();
    expect(review.warnings.join(' ')).toMatch(/Unlimited value/);
    expect(review.warnings[0]).toBe(
      'The value is unlimited, so the console cannot price it; it needs 2 approvals.',
    );
    expect(view?.request.requiredApprovals).toBe(2);
    // One approval leaves it waiting: nothing is signed.
    const once = await e.approve(finance, unlimited.data.id);
    expect(once.ok && once.data.status).toBe('PENDING_APPROVAL');

    const vote = {
      addressId: float.id,
      signer: float.address,
      domain: { name: 'Votes', version: '1', chainId: 11155111, verifyingContract: SPENDER },
      types: { Vote: [{ name: 'choice', type: 'uint8' }] },
      primaryType: 'Vote',
      message: { choice: '1' },
    };
    const other = await e.create(admin, 'typedDataSign', wallet.id, vote);
    if (!other.ok) throw new Error(other.error);
    const otherView = (await e.view(other.data.id))!;
    expect((otherView.request.review as unknown as TypedDataReview).warnings[0]).toBe(
      'The console cannot read what a Vote signature allows or moves; it needs 2 approvals.',
    );
    expect(otherView.request.requiredApprovals).toBe(2);
  });

  it('refuses a permit whose spender is outside the address book (the destination policy), and requests nothing', async () => {
    const stranger = '0x00000000000000000000000000000000000000bb';
    const before = await database.db.select().from(operationRequests);
    const created = await engine().create(
      admin,
      'typedDataSign',
      wallet.id,
      await permitPayload('5', stranger),
    );
    expect(created.ok).toBe(false);
    expect(!created.ok && created.error).toMatch(
      /^The spender of the permit: 0x0{38}[bB]{2} is not in this wallet's address book: money goes only to address book entries past their cooling-off/,
    );
    expect(await database.db.select().from(operationRequests)).toHaveLength(before.length);
  });

  it('refuses a payload whose message disagrees with its types', async () => {
    const payload = await permitPayload();
    const bad = { ...payload, message: { ...payload.message, deadline: undefined } };
    const created = await engine().create(admin, 'typedDataSign', wallet.id, bad);
    expect(created.ok).toBe(false);
  });
});
