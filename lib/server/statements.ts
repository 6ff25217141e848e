import 'server-only';
// Month-end statements per wallet and asset. The service gives only the current balance, so:
// - closing = the service's current balance (master wallet plus its child addresses, balances extension) less
//   the net of the transactions it lists after the period;
// - opening = the closing the console audited for the period before, when it has generated one; else the
//   closing less the net of the period's listed transactions;
// - deposits, withdrawals, swaps and fees are added up from the copies of each transaction the service signed
//   and delivered by webhook (stored by the receiver), from its list where no settled copy was received.
// The check opening + in - out - fees = closing then fails exactly where a listed transaction differs from its
// signed copy, or where the audited opening differs from today's, and each such difference is a line.
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { formatUnits, parseUnits } from 'viem';
import type { CustodyClient } from '@/lib/custody';
import { isMissingEndpoint } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { auditLog, type ConsoleDb, webhookEvents } from '@/lib/db/schema';
import type { Statement, StatementDifference, StatementLine } from '@/lib/validation/statements';
import { type AuditEntryInput, appendAudit } from './audit';
import { csvRow } from './csv';
import { type TransactionSource, withTransactionSource } from './transactions';
import { childAddressIdsFor } from './wallet-addresses';

export const STATEMENT_AUDIT_ACTION = 'statement.generated';
const NATIVE_ADDRESS = /^0x0{40}$/i;
const DAY_MS = 86_400_000;
/** A stop for runaway reads: beyond this many transactions the statement says it is incomplete. */
const MAX_TRANSACTIONS = 50_000;
const PAGE = 500;

/** The figures of a transaction that move balances, read alike from the list and from a webhook payload. */
interface Figures {
  id: string;
  reference: string;
  type: string;
  status: string;
  hash: string | null;
  createdAt: string;
  walletId: string | null;
  assetId: string | null;
  amount: string | null;
  gasFee: string | null;
  toAssetId: string | null;
  toAmount: string | null;
  toWalletId: string | null;
  assetSwept: boolean;
  assetSweptGasFee: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const idOf = (v: unknown): string | null =>
  v && typeof v === 'object' && 'id' in v ? text((v as { id: unknown }).id) : null;

function figuresOf(raw: Record<string, unknown>): Figures {
  return {
    id: String(raw.id ?? ''),
    reference: text(raw.reference) ?? '',
    type: text(raw.type) ?? '',
    status: text(raw.status) ?? '',
    hash: text(raw.hash),
    createdAt: text(raw.createdAt) ?? '',
    walletId: idOf(raw.wallet),
    assetId: idOf(raw.asset),
    amount: text(raw.amount),
    gasFee: text(raw.gasFee),
    toAssetId: idOf(raw.toAsset) ?? text(raw.toAssetId),
    toAmount: text(raw.toAmount),
    toWalletId: idOf(raw.toWallet),
    assetSwept: raw.assetSwept === true,
    assetSweptGasFee: text(raw.assetSweptGasFee),
  };
}

export interface StatementAsset {
  assetId: string;
  /** The wallet's entry for the asset (#4 `assets[].id`). */
  walletAssetId: string;
  symbol: string;
  name: string | null;
  decimals: number;
  native: boolean;
}

interface Movement {
  deposit: bigint;
  withdrawal: bigint;
  swapIn: bigint;
  swapOut: bigint;
  fee: bigint;
}

const NONE: Movement = { deposit: 0n, withdrawal: 0n, swapIn: 0n, swapOut: 0n, fee: 0n };

function units(value: string | null, decimals: number): bigint {
  if (!value || !/^\d+(\.\d+)?$/.test(value.trim())) return 0n;
  return parseUnits(value.trim(), decimals);
}

/** Settled, or on chain (a hash) awaiting confirmations: the service's ledger has already moved. */
function counts(f: Figures): boolean {
  return f.status === 'SUCCESS' || (f.status === 'PENDING' && !!f.hash);
}

/**
 * How one transaction moves one asset of the wallet. A sweep (child to master) is an internal move: only its
 * gas counts, in the native asset, as do the network fees of withdrawals, swaps and contract calls.
 */
function movementOf(f: Figures, walletId: string, asset: StatementAsset): Movement {
  if (!counts(f)) return NONE;
  const m = { ...NONE };
  const own = f.assetId === asset.assetId;
  const nativeFee = asset.native ? units(f.gasFee, 18) : 0n;
  switch (f.type) {
    case 'DEPOSIT':
      if (own) m.deposit = units(f.amount, asset.decimals);
      if (asset.native && f.assetSwept) m.fee = units(f.assetSweptGasFee, 18);
      break;
    case 'WITHDRAW':
      if (own) m.withdrawal = units(f.amount, asset.decimals);
      m.fee = nativeFee;
      break;
    case 'SWAP':
      if (own) m.swapOut = units(f.amount, asset.decimals);
      // A swap delivered to another wallet leaves this one; one delivered here comes back in.
      if (f.toAssetId === asset.assetId && (f.toWalletId === null || f.toWalletId === walletId))
        m.swapIn = units(f.toAmount, asset.decimals);
      m.fee = nativeFee;
      break;
    default:
      m.fee = nativeFee;
  }
  return m;
}

const isNone = (m: Movement) => Object.values(m).every((v) => v === 0n);
const netOf = (m: Movement) => m.deposit + m.swapIn - m.withdrawal - m.swapOut - m.fee;

export interface StatementInput {
  walletId: string;
  walletName: string;
  asset: StatementAsset;
  from: string;
  to: string;
  scope: 'wallet' | 'child-addresses';
  /** Every transaction the service lists for the wallet now. */
  listed: Record<string, unknown>[];
  /** The newest settled copy the service signed, per transaction id. */
  signed: Map<string, Record<string, unknown>>;
  /** The service's current balance of the asset, base units; null when it gives none. */
  balance: bigint | null;
  /** The closing the console audited for the period ending where this one starts. */
  recordedOpening: { amount: bigint; at: string } | null;
  notes?: string[];
}

/** Start (inclusive) and end (exclusive) instants of a period of whole UTC days. */
function periodBounds(from: string, to: string): { start: number; end: number } {
  return { start: Date.parse(`${from}T00:00:00Z`), end: Date.parse(`${to}T00:00:00Z`) + DAY_MS };
}

/** The statement from its parts; pure, so a test can hold it against the parts. */
function computeStatement(input: StatementInput): Statement {
  const { asset, walletId } = input;
  const { start, end } = periodBounds(input.from, input.to);
  const fmt = (v: bigint) => formatUnits(v, asset.decimals);
  // Fees are in the native asset (18 decimals) and only counted there.
  let afterNet = 0n;
  let periodListedNet = 0n;
  const totals = { ...NONE };
  const lines: StatementLine[] = [];
  const differences: StatementDifference[] = [];
  let pending = 0;
  const seen = new Set<string>();
  const ordered = input.listed
    .map(figuresOf)
    .filter((f) => {
      if (seen.has(f.id)) return false;
      seen.add(f.id);
      return true;
    })
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1));
  for (const listed of ordered) {
    const at = Date.parse(listed.createdAt);
    if (Number.isNaN(at) || at < start) continue;
    const listedMove = movementOf(listed, walletId, asset);
    if (at >= end) {
      afterNet += netOf(listedMove);
      continue;
    }
    periodListedNet += netOf(listedMove);
    const copy = input.signed.get(listed.id);
    const signed = copy ? figuresOf(copy) : null;
    const move = signed ? movementOf(signed, walletId, asset) : listedMove;
    if (!counts(listed) && !(signed && counts(signed))) {
      if (listed.status === 'PENDING') pending += 1;
      continue;
    }
    const net = netOf(move);
    // A transaction that moves nothing of this asset (by either account of it) is not a line.
    if (isNone(move) && isNone(listedMove)) continue;
    for (const k of Object.keys(totals) as Array<keyof Movement>) totals[k] += move[k];
    lines.push({
      transactionId: listed.id,
      reference: listed.reference,
      type: listed.type,
      createdAt: new Date(at).toISOString(),
      net: fmt(net),
      deposit: fmt(move.deposit),
      withdrawal: fmt(move.withdrawal),
      swapIn: fmt(move.swapIn),
      swapOut: fmt(move.swapOut),
      fee: fmt(move.fee),
      source: signed ? 'signed' : 'listed',
    });
    if (signed && net !== netOf(listedMove)) {
      differences.push({
        transactionId: listed.id,
        reference: listed.reference,
        what: describeChange(listed, signed),
        listed: fmt(netOf(listedMove)),
        signed: fmt(net),
        amount: fmt(net - netOf(listedMove)),
      });
    }
  }
  const closing = input.balance === null ? null : input.balance - afterNet;
  const derivedOpening = closing === null ? null : closing - periodListedNet;
  const opening = input.recordedOpening?.amount ?? derivedOpening;
  if (input.recordedOpening && derivedOpening !== null && input.recordedOpening.amount !== derivedOpening) {
    differences.unshift({
      transactionId: null,
      reference: null,
      what: `Opening balance: the closing audited on ${input.recordedOpening.at} against the one derived from the service's list today`,
      listed: fmt(derivedOpening),
      signed: fmt(input.recordedOpening.amount),
      amount: fmt(input.recordedOpening.amount - derivedOpening),
    });
  }
  const expected = opening === null ? null : opening + netOf(totals);
  return {
    walletId,
    walletName: input.walletName,
    asset: { symbol: asset.symbol, name: asset.name, decimals: asset.decimals, native: asset.native },
    from: input.from,
    to: input.to,
    scope: input.scope,
    opening: {
      amount: opening === null ? null : fmt(opening),
      source: input.recordedOpening ? 'recorded' : 'derived',
      recordedAt: input.recordedOpening?.at ?? null,
    },
    deposits: fmt(totals.deposit),
    withdrawals: fmt(totals.withdrawal),
    swapsIn: fmt(totals.swapIn),
    swapsOut: fmt(totals.swapOut),
    fees: fmt(totals.fee),
    expectedClosing: expected === null ? null : fmt(expected),
    closing: { amount: closing === null ? null : fmt(closing) },
    difference: expected === null || closing === null ? null : fmt(expected - closing),
    lines,
    differences,
    pending,
    notes: input.notes ?? [],
  };
}

function describeChange(listed: Figures, signed: Figures): string {
  const changed: string[] = [];
  const pairs: Array<[string, unknown, unknown]> = [
    ['status', listed.status, signed.status],
    ['amount', listed.amount, signed.amount],
    ['network fee', listed.gasFee, signed.gasFee],
    ['amount received', listed.toAmount, signed.toAmount],
    ['sweep fee', listed.assetSweptGasFee, signed.assetSweptGasFee],
    ['asset', listed.assetId, signed.assetId],
  ];
  for (const [name, a, b] of pairs)
    if (a !== b) changed.push(`${name} listed ${a ?? '—'}, signed ${b ?? '—'}`);
  return changed.length ? changed.join('; ') : 'figures differ from the signed copy';
}

// ---------------------------------------------------------------------------------------------------------
// Reading the parts

async function readListed(
  client: CustodyClient,
  walletId: string,
  source: TransactionSource,
): Promise<{ rows: Transaction[]; truncated: boolean }> {
  const rows: Transaction[] = [];
  const readAll = async (
    read: (page: number) => Promise<{ data: Transaction[]; meta: { totalPages: number } }>,
  ) => {
    for (let page = 1; rows.length < MAX_TRANSACTIONS; page += 1) {
      const result = await read(page);
      rows.push(...result.data);
      if (result.data.length === 0 || page >= result.meta.totalPages) return false;
    }
    return true;
  };
  if (source.kind === 'wallet') {
    const truncated = await readAll((page) =>
      client.wallets.listTransactions({ walletId, page, limit: PAGE, order: 'ASC' }),
    );
    return { rows, truncated };
  }
  let truncated = false;
  for (const addressId of source.addressIds) {
    truncated =
      (await readAll((page) =>
        client.addresses.listTransactions({ walletId, addressId, page, limit: PAGE, order: 'ASC' }),
      )) || truncated;
  }
  return { rows, truncated };
}

/** The newest settled (SUCCESS or FAILED) copy of each transaction the receiver stored. */
async function readSigned(
  db: ConsoleDb,
  walletId: string,
  ids: string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ transactionId: webhookEvents.transactionId, payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(
        and(
          eq(webhookEvents.walletId, walletId),
          inArray(webhookEvents.transactionId, ids.slice(i, i + 1000)),
          inArray(webhookEvents.status, ['SUCCESS', 'FAILED']),
        ),
      )
      .orderBy(desc(webhookEvents.receivedAt));
    for (const row of rows) if (!out.has(row.transactionId)) out.set(row.transactionId, row.payload);
  }
  return out;
}

/** The wallet's current balance of each asset, master plus child addresses; null without the extension. */
async function readBalances(client: CustodyClient, walletId: string): Promise<Map<string, bigint> | null> {
  try {
    const totals = new Map<string, bigint>();
    // Keyed by the asset's id, or the wallet's asset entry where the service leaves the asset's id out.
    const add = (
      rows: Array<{ balance: string; asset: { id: string; asset: { id?: string; decimals: number } } }>,
    ) => {
      for (const row of rows) {
        const id = row.asset.asset.id ?? row.asset.id;
        totals.set(id, (totals.get(id) ?? 0n) + units(row.balance, row.asset.asset.decimals));
      }
    };
    add((await client.wallets.balances({ walletId })).data);
    for (const addressId of await childAddressIdsFor(client, walletId))
      add((await client.addresses.balances({ walletId, addressId })).data);
    return totals;
  } catch (error) {
    if (isMissingEndpoint(error)) return null;
    throw error;
  }
}

/** The closing the console audited for this wallet and asset for the period ending the day before `from`. */
async function recordedClosing(
  db: ConsoleDb,
  walletId: string,
  symbol: string,
  from: string,
): Promise<{ amount: bigint; at: string } | null> {
  const rows = await db
    .select({ input: auditLog.input, at: auditLog.at })
    .from(auditLog)
    .where(and(eq(auditLog.action, STATEMENT_AUDIT_ACTION), eq(auditLog.target, walletId)))
    .orderBy(desc(auditLog.id))
    .limit(500);
  const previousDay = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  for (const row of rows) {
    const input = row.input as Record<string, unknown>;
    if (input.asset === symbol && input.to === previousDay && typeof input.closingUnits === 'string')
      return { amount: BigInt(input.closingUnits), at: new Date(row.at).toISOString() };
  }
  return null;
}

export async function walletStatementAssets(client: CustodyClient, walletId: string) {
  const wallet = (await client.wallets.get({ walletId })).data;
  const assets: StatementAsset[] = [];
  for (const entry of wallet.assets) {
    if (assets.some((a) => a.assetId === entry.asset.id)) continue;
    assets.push({
      assetId: entry.asset.id,
      walletAssetId: entry.id,
      symbol: entry.asset.symbol,
      name: entry.asset.name ?? null,
      decimals: entry.asset.decimals,
      native: NATIVE_ADDRESS.test(entry.asset.address ?? '') || !entry.asset.address,
    });
  }
  return { name: wallet.name, assets };
}

export interface StatementRequest {
  walletId: string;
  from: string;
  to: string;
  /** Symbols; all of the wallet's assets when absent. */
  symbols?: string[];
}

/** Statements of one wallet for a period, one per asset asked for, read from the service and the receiver. */
export async function loadStatements(
  db: ConsoleDb,
  client: CustodyClient,
  request: StatementRequest,
): Promise<Statement[]> {
  const { walletId, from, to } = request;
  const wallet = await walletStatementAssets(client, walletId);
  const assets = request.symbols
    ? wallet.assets.filter((a) => request.symbols?.includes(a.symbol))
    : wallet.assets;
  if (assets.length === 0) return [];
  const {
    rows: listed,
    scope,
    truncated,
  } = await withTransactionSource(client, walletId, async (source) => ({
    ...(await readListed(client, walletId, source)),
    scope: source.kind === 'wallet' ? ('wallet' as const) : ('child-addresses' as const),
  }));
  // Balances are read after the list: a transaction landing in between shows as a difference, never hides one.
  const balances = await readBalances(client, walletId);
  const { start } = periodBounds(from, to);
  const inScope = listed.filter((tx) => Date.parse(tx.createdAt) >= start);
  const signed = await readSigned(
    db,
    walletId,
    inScope.map((tx) => tx.id),
  );
  const notes: string[] = [];
  if (!balances)
    notes.push(
      'The custody service does not give balances per asset, so opening and closing balances cannot be derived.',
    );
  if (truncated) notes.push(`Only the first ${MAX_TRANSACTIONS} transactions were read.`);
  if (scope === 'child-addresses')
    notes.push(
      "The service cannot list the wallet's own transactions: only those of its known child addresses are counted.",
    );
  return Promise.all(
    assets.map(async (asset) =>
      computeStatement({
        walletId,
        walletName: wallet.name,
        asset,
        from,
        to,
        scope,
        listed: inScope as unknown as Record<string, unknown>[],
        signed,
        balance: balances ? (balances.get(asset.assetId) ?? balances.get(asset.walletAssetId) ?? 0n) : null,
        recordedOpening: await recordedClosing(db, walletId, asset.symbol, from),
        notes,
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------
// The file and its hash

/** The statement as CSV: the same bytes for the same figures (no generation time), so a file can be re-proven. */
export function statementCsv(s: Statement): string {
  const rows: unknown[][] = [
    ['statement', s.walletName, s.walletId],
    ['asset', s.asset.symbol],
    ['period', s.from, s.to],
    ['scope', s.scope === 'wallet' ? 'master wallet and child addresses' : 'known child addresses'],
    ['opening', s.opening.amount ?? '', s.opening.source],
    ['deposits', s.deposits],
    ['withdrawals', s.withdrawals],
    ['swaps in', s.swapsIn],
    ['swaps out', s.swapsOut],
    ['fees', s.fees],
    ['expected closing', s.expectedClosing ?? ''],
    ['closing', s.closing.amount ?? '', 'service balance less later transactions'],
    ['difference', s.difference ?? ''],
    [],
    [
      'transactionId',
      'reference',
      'type',
      'createdAt',
      'deposit',
      'withdrawal',
      'swapIn',
      'swapOut',
      'fee',
      'net',
      'source',
    ],
    ...s.lines.map((l) => [
      l.transactionId,
      l.reference,
      l.type,
      l.createdAt,
      l.deposit,
      l.withdrawal,
      l.swapIn,
      l.swapOut,
      l.fee,
      l.net,
      l.source,
    ]),
  ];
  if (s.differences.length > 0) {
    rows.push([], ['difference transactionId', 'reference', 'what', 'listed', 'signed', 'amount']);
    for (const d of s.differences)
      rows.push([d.transactionId ?? 'opening', d.reference ?? '', d.what, d.listed, d.signed, d.amount]);
  }
  return rows.map((r) => csvRow(r)).join('');
}

export function sha256Hex(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

export function statementFileName(s: Statement): string {
  return `statement-${s.walletId.slice(0, 8)}-${s.asset.symbol}-${s.from}-${s.to}.csv`;
}

/**
 * Writes the file's SHA-256 to the audit chain with wallet, asset, period and the closing in base units (the
 * next period's recorded opening), so the file can be proven unchanged later.
 */
export async function auditStatementFile(
  db: ConsoleDb,
  actor: Pick<AuditEntryInput, 'actorId' | 'actorEmail' | 'role' | 'requestId'>,
  s: Statement,
  csv: string,
): Promise<string> {
  const sha256 = sha256Hex(csv);
  await appendAudit(db, {
    ...actor,
    action: STATEMENT_AUDIT_ACTION,
    target: s.walletId,
    outcome: 'success',
    input: {
      asset: s.asset.symbol,
      from: s.from,
      to: s.to,
      sha256,
      file: statementFileName(s),
      difference: s.difference,
      closingUnits:
        s.closing.amount === null ? null : parseUnits(s.closing.amount, s.asset.decimals).toString(),
    },
  });
  return sha256;
}

/** An audited generation of a statement file: what it covered and when it was written. */
export interface AuditedStatement {
  asset: string;
  from: string;
  to: string;
  file: string;
  at: string;
}

/** The audited generations of this wallet's statements whose file had this hash, newest first. */
export async function auditedStatementHashes(
  db: ConsoleDb,
  walletId: string,
  sha256: string,
): Promise<AuditedStatement[]> {
  const rows = await db
    .select({ input: auditLog.input, at: auditLog.at })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, STATEMENT_AUDIT_ACTION),
        eq(auditLog.target, walletId),
        sql`${auditLog.input} ->> 'sha256' = ${sha256}`,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(100);
  return rows.map((r) => {
    const input = r.input as Record<string, unknown>;
    return {
      asset: String(input.asset ?? ''),
      from: String(input.from ?? ''),
      to: String(input.to ?? ''),
      file: String(input.file ?? ''),
      at: new Date(r.at).toISOString(),
    };
  });
}
