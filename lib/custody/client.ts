import 'server-only';
// One typed function per endpoint of shared/spec/custody-api.md (#1 to #23) plus the extensions the real
// service has. The first argument carries path parameters and query; the second, where there is one, the
// request body.
import { z } from 'zod';
import {
  type AutoSettlementRuleInput,
  type CallItemInput,
  type CreateAddressInput,
  type SortOrder,
  type SwapInput,
  type SwapQuoteInput,
  schemas,
  type Transaction,
  type TransactionFilterType,
  type TransactionSortField,
  type TransactionStatus,
  type TypedDataInput,
  type WhitelistAddressInput,
  type WithdrawalItemInput,
  type WithdrawNetworkFeeItemInput,
} from './schemas';
import { createTransport, path, type QueryValue, type TransportOptions } from './transport';

export interface CustodyResult<T> {
  data: T;
  message: string;
}

export interface CustodyPage<T> {
  data: T[];
  meta: z.output<typeof schemas.pageMeta>;
  message: string;
}

/**
 * A batch answer: the batch's data fields at the top level (`success`/`fees` and `errors`), plus the
 * message. Partial failure is a value here, never an exception (batch rules 2 and 3).
 */
type BatchResult<B> = B & { form: 'batch'; message: string };
type SingleResult<S> = { form: 'single'; data: S; message: string };

export interface WalletParams {
  walletId: string;
}
export interface AddressParams extends WalletParams {
  addressId: string;
}
export interface PageParams {
  page?: number;
  limit?: number;
}

/** Filters of #3. Upper-case lists of the spec are suggestions; other strings are passed through. */
export interface TransactionFilters {
  id?: string;
  hash?: string;
  status?: TransactionStatus;
  type?: TransactionFilterType;
  order?: SortOrder;
  /** Asset symbols; sent comma-separated. */
  assets?: readonly string[];
}

export interface CallsBody {
  calls: CallItemInput[];
}
/** #16 and #17 take the two-factor code; it is sent once and never kept. */
export interface CallsWithCodeBody extends CallsBody {
  code?: string;
}

function transactionFilterQuery(filters: TransactionFilters & PageParams): Record<string, QueryValue> {
  return {
    id: filters.id,
    hash: filters.hash,
    status: filters.status,
    type: filters.type,
    order: filters.order,
    assets: filters.assets,
    page: filters.page,
    limit: filters.limit,
  };
}

function single<T>(envelope: { data: T; message: string }): CustodyResult<T> {
  return { data: envelope.data, message: envelope.message };
}

/**
 * #12/#13: `data` is the first item's Transaction; `transactions` every item's the service named (the `batch`
 * extension), or the first alone where it named no more.
 */
function withdrawalResult(envelope: { data: z.output<typeof schemas.withdrawal>; message: string }) {
  const { batch, ...first } = envelope.data;
  const data: Transaction = first;
  return { data, transactions: batch && batch.length > 0 ? batch : [data], message: envelope.message };
}

function paged<T>(envelope: {
  data: T[];
  message: string;
  meta: z.output<typeof schemas.pageMeta>;
}): CustodyPage<T> {
  return { data: envelope.data, meta: envelope.meta, message: envelope.message };
}

type FormData = { form: 'single'; data: unknown } | { form: 'batch'; data: object };
type ResultOf<D> = D extends { form: 'single'; data: infer S }
  ? SingleResult<S>
  : D extends { form: 'batch'; data: infer B }
    ? BatchResult<B>
    : never;

function byForm<D extends FormData>(envelope: { data: D; message: string }): ResultOf<D> {
  const { data, message } = envelope;
  const result =
    data.form === 'single'
      ? { form: 'single', data: data.data, message }
      : // `form` and `message` come last so a passthrough field of the same name cannot shadow them.
        { ...data.data, form: 'batch', message };
  return result as ResultOf<D>;
}

const { envelope, pagedEnvelope } = schemas;

// Built once: zod schemas are not free to construct, and the read path has a latency budget.
const responses = {
  transaction: envelope(schemas.transaction),
  withdrawal: envelope(schemas.withdrawal),
  transactionPage: pagedEnvelope(schemas.transaction),
  wallet: envelope(schemas.wallet),
  address: envelope(schemas.address),
  addressPage: pagedEnvelope(schemas.address),
  beneficiary: envelope(schemas.beneficiary),
  beneficiaryPage: pagedEnvelope(schemas.beneficiary),
  walletAutoSettlement: envelope(schemas.walletAutoSettlement),
  rule: envelope(schemas.autoSettlementRule),
  rules: envelope(z.array(schemas.autoSettlementRule)),
  withdrawSign: envelope(schemas.withdrawSignResult),
  swapQuote: envelope(schemas.swapQuote),
  withdrawNetworkFee: envelope(schemas.withdrawNetworkFeeData),
  contractWrite: envelope(schemas.contractWriteData),
  contractSign: envelope(schemas.contractSignData),
  contractRead: envelope(schemas.contractReadData),
  contractNetworkFee: envelope(schemas.contractNetworkFeeData),
  typedDataSign: envelope(schemas.typedDataSignedTransaction),
  webhookPage: pagedEnvelope(schemas.webhookLog),
  webhooks: envelope(z.array(schemas.webhookLog)),
  balances: schemas.assetBalancesEnvelope,
};

export function createCustodyClient(options: TransportOptions) {
  const transport = createTransport(options);

  return {
    transactions: {
      /** #1. Not idempotent: a retry re-submits the transaction upstream. */
      async retry({ walletId, id }: WalletParams & { id: string }) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/transactions/retry`,
            body: { id },
            schema: responses.transaction,
            idempotent: false,
          }),
        );
      },
      /** #2. Not retried automatically: each call delivers the webhook again. */
      async resendWebhook({ walletId, id }: WalletParams & { id: string }) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/transactions/webhooks/resend`,
            body: { id },
            schema: responses.transaction,
            idempotent: false,
          }),
        );
      },
    },

    wallets: {
      /** #4. */
      async get({ walletId, showPrivateKey }: WalletParams & { showPrivateKey?: boolean }) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}`,
            query: { showPrivateKey },
            schema: responses.wallet,
            idempotent: true,
          }),
        );
      },
      /** Extension: the wallet's child addresses (`GET /v1/wallets/{walletId}/addresses`), paged. */
      async listAddresses({
        walletId,
        page,
        limit,
        search,
        type,
      }: WalletParams & PageParams & { search?: string; type?: 'INTERNAL' | 'EXTERNAL' }) {
        return paged(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/addresses`,
            query: { page, limit, search, type },
            schema: responses.addressPage,
            idempotent: true,
          }),
        );
      },
      /** Extension: every transaction of the wallet (`GET /v1/wallets/{walletId}/transactions`), paged. */
      async listTransactions({
        walletId,
        reference,
        addressId,
        sort,
        ...filters
      }: WalletParams &
        TransactionFilters &
        PageParams & { reference?: string; addressId?: string; sort?: TransactionSortField }) {
        return paged(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/transactions`,
            query: { ...transactionFilterQuery(filters), reference, addressId, sort },
            schema: responses.transactionPage,
            idempotent: true,
          }),
        );
      },
      /** Extension: the master wallet's balance per asset (`GET /v1/wallets/{walletId}/balances`). */
      async balances({ walletId }: WalletParams) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/balances`,
            schema: responses.balances,
            idempotent: true,
          }),
        );
      },
      /** Extension: one transaction (`GET /v1/wallets/{walletId}/transactions/{id}`). */
      async getTransaction({ walletId, id }: WalletParams & { id: string }) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/transactions/${id}`,
            schema: responses.transaction,
            idempotent: true,
          }),
        );
      },
    },

    addresses: {
      /** #5. */
      async get({ walletId, addressId, showPrivateKey }: AddressParams & { showPrivateKey?: boolean }) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}`,
            query: { showPrivateKey },
            schema: responses.address,
            idempotent: true,
          }),
        );
      },
      /** Extension: a child address's balance per asset (`GET /v1/wallets/{walletId}/addresses/{addressId}/balances`). */
      async balances({ walletId, addressId }: AddressParams) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/balances`,
            schema: responses.balances,
            idempotent: true,
          }),
        );
      },
      /** #3. */
      async listTransactions({
        walletId,
        addressId,
        ...filters
      }: AddressParams & TransactionFilters & PageParams) {
        return paged(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/transactions`,
            query: transactionFilterQuery(filters),
            schema: responses.transactionPage,
            idempotent: true,
          }),
        );
      },
      /**
       * Extension `POST /v1/wallets/{walletId}/addresses`: derives a new deposit (child) address. Not retried
       * automatically: a lost answer could otherwise create two addresses.
       */
      async create({ walletId }: WalletParams, body: CreateAddressInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses`,
            body,
            schema: responses.address,
            idempotent: false,
          }),
        );
      },
      /**
       * `DELETE /v1/wallets/{walletId}/addresses/whitelist/{addressId}`: removes a whitelisted address. Blockradar
       * documents it ("Unwhitelist address"), the spec's 23 do not, so the console lives without it. Not retried
       * automatically: a repeat after a lost answer would be refused as unknown.
       */
      async removeWhitelisted({ walletId, addressId }: AddressParams) {
        return single(
          await transport.request({
            method: 'DELETE',
            path: path`/v1/wallets/${walletId}/addresses/whitelist/${addressId}`,
            schema: responses.address,
            idempotent: false,
          }),
        );
      },
      /** #6. Creates a record upstream, so it is not retried automatically. */
      async whitelist({ walletId }: WalletParams, body: WhitelistAddressInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/whitelist`,
            body,
            schema: responses.address,
            idempotent: false,
          }),
        );
      },
    },

    beneficiaries: {
      /** Extension: `GET /v1/wallets/{walletId}/beneficiaries`, paged. */
      async list({ walletId, page, limit }: WalletParams & PageParams) {
        return paged(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/beneficiaries`,
            query: { page, limit },
            schema: responses.beneficiaryPage,
            idempotent: true,
          }),
        );
      },
      /**
       * #7. Not retried automatically: when the first answer is lost, a second DELETE reports "not found"
       * and hides that the deletion happened.
       */
      async delete({ walletId, id }: WalletParams & { id: string }) {
        return single(
          await transport.request({
            method: 'DELETE',
            path: path`/v1/wallets/${walletId}/beneficiaries/${id}`,
            schema: responses.beneficiary,
            idempotent: false,
          }),
        );
      },
    },

    autoSettlement: {
      /** #8. */
      async get({ walletId }: WalletParams) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/auto-settlements`,
            schema: responses.walletAutoSettlement,
            idempotent: true,
          }),
        );
      },
      /** #9. Sets an absolute value, so repeating it is harmless. */
      async update({ walletId }: WalletParams, body: { isActive: boolean }) {
        return single(
          await transport.request({
            method: 'PATCH',
            path: path`/v1/wallets/${walletId}/auto-settlements`,
            body,
            schema: responses.walletAutoSettlement,
            idempotent: true,
          }),
        );
      },
    },

    addressRules: {
      /** Extension: `GET /v1/wallets/{walletId}/addresses/{addressId}/auto-settlements/rules`. */
      async list({ walletId, addressId }: AddressParams) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/auto-settlements/rules`,
            schema: responses.rules,
            idempotent: true,
          }),
        );
      },
      /** #10. Creates a rule; a blind retry could create two. */
      async create({ walletId, addressId }: AddressParams, body: AutoSettlementRuleInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/auto-settlements/rules`,
            body,
            schema: responses.rule,
            idempotent: false,
          }),
        );
      },
      /** #11. Sends every field of the rule, so repeating it is harmless. */
      async update(
        { walletId, addressId, id }: AddressParams & { id: string },
        body: AutoSettlementRuleInput,
      ) {
        return single(
          await transport.request({
            method: 'PATCH',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/auto-settlements/rules/${id}`,
            body,
            schema: responses.rule,
            idempotent: true,
          }),
        );
      },
    },

    withdraw: {
      /** #12. Moves money: sent exactly once. */
      async fromMaster({ walletId }: WalletParams, body: { assets: WithdrawalItemInput[] }) {
        return withdrawalResult(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/withdraw`,
            body,
            schema: responses.withdrawal,
            idempotent: false,
          }),
        );
      },
      /** #13. Moves money: sent exactly once. */
      async fromAddress({ walletId, addressId }: AddressParams, body: { assets: WithdrawalItemInput[] }) {
        return withdrawalResult(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/withdraw`,
            body,
            schema: responses.withdrawal,
            idempotent: false,
          }),
        );
      },
      /** #14. Signs without broadcasting; still never retried blind (a signed transaction can be broadcast). */
      async sign({ walletId }: WalletParams, body: { assets: WithdrawalItemInput[] }) {
        const { data, message } = await transport.request({
          method: 'POST',
          path: path`/v1/wallets/${walletId}/withdraw/sign`,
          body,
          schema: responses.withdrawSign,
          idempotent: false,
        });
        return { ...data, message };
      },
      /** #15. An estimate: safe to retry. */
      async networkFee({ walletId }: WalletParams, body: { assets: WithdrawNetworkFeeItemInput[] }) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/withdraw/network-fee`,
            body,
            schema: responses.withdrawNetworkFee,
            idempotent: true,
          }),
        );
      },
      /**
       * #15's child-address form: the estimate for withdrawals from a child address, with the native balance of
       * whoever pays the gas (the master wallet for a gasless address). An estimate: safe to retry.
       */
      async networkFeeFromAddress(
        { walletId, addressId }: AddressParams,
        body: { assets: WithdrawNetworkFeeItemInput[] },
      ) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/withdraw/network-fee`,
            body,
            schema: responses.withdrawNetworkFee,
            idempotent: true,
          }),
        );
      },
    },

    contracts: {
      /** #16. Broadcasts: sent exactly once. */
      async write({ walletId, addressId }: AddressParams, body: CallsWithCodeBody) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/contracts/write`,
            body,
            schema: responses.contractWrite,
            idempotent: false,
          }),
        );
      },
      /** #17. Sign-only; never retried blind. */
      async sign({ walletId, addressId }: AddressParams, body: CallsWithCodeBody) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/contracts/write/sign`,
            body,
            schema: responses.contractSign,
            idempotent: false,
          }),
        );
      },
      /** #18. A read: safe to retry. */
      async read({ walletId }: WalletParams, body: CallsBody) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/contracts/read`,
            body,
            schema: responses.contractRead,
            idempotent: true,
          }),
        );
      },
      /** #19. An estimate: safe to retry. */
      async networkFee({ walletId }: WalletParams, body: CallsBody) {
        return byForm(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/contracts/network-fee`,
            body,
            schema: responses.contractNetworkFee,
            idempotent: true,
          }),
        );
      },
    },

    swaps: {
      /** Extension `POST .../addresses/{addressId}/swaps/quote`: a read, safe to repeat. */
      async quote({ walletId, addressId }: AddressParams, body: SwapQuoteInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/swaps/quote`,
            body,
            schema: responses.swapQuote,
            idempotent: true,
          }),
        );
      },
      /** #20. Moves money: sent exactly once. */
      async execute({ walletId, addressId }: AddressParams, body: SwapInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/swaps/execute`,
            body,
            schema: responses.transaction,
            idempotent: false,
          }),
        );
      },
    },

    signing: {
      /** #21. A signature (e.g. a permit) can move funds later: never retried blind. */
      async typedData({ walletId, addressId }: AddressParams, body: TypedDataInput) {
        return single(
          await transport.request({
            method: 'POST',
            path: path`/v1/wallets/${walletId}/addresses/${addressId}/signing/typed-data`,
            body,
            schema: responses.typedDataSign,
            idempotent: false,
          }),
        );
      },
    },

    webhooks: {
      /** #22. */
      async list({ walletId, page, limit }: WalletParams & PageParams) {
        return paged(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/webhooks`,
            query: { page, limit },
            schema: responses.webhookPage,
            idempotent: true,
          }),
        );
      },
      /** #23. */
      async forTransaction({ walletId, transactionId }: WalletParams & { transactionId: string }) {
        return single(
          await transport.request({
            method: 'GET',
            path: path`/v1/wallets/${walletId}/transactions/${transactionId}/webhooks`,
            schema: responses.webhooks,
            idempotent: true,
          }),
        );
      },
    },
  };
}

export type CustodyClient = ReturnType<typeof createCustodyClient>;

const BATCH_COUNTS = /\(\s*(\d+)\s*\/\s*(\d+)\s+successful\s*\)/i;

/** Reads "(N/M successful)" from a batch message (Errors, rule 2); undefined when the message has none. */
export function batchCounts(message: string): { succeeded: number; total: number } | undefined {
  const match = BATCH_COUNTS.exec(message);
  if (!match) return undefined;
  return { succeeded: Number(match[1]), total: Number(match[2]) };
}
