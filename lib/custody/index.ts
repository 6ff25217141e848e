import 'server-only';

// Server entry of the custody client. Client components import types and request schemas from
// `@/lib/custody/schemas` instead: this module pulls in the transport, which holds the API key.
export {
  type AddressParams,
  type BatchResult,
  batchCounts,
  type CallsBody,
  type CallsWithCodeBody,
  type CustodyClient,
  type CustodyPage,
  type CustodyResult,
  createCustodyClient,
  type PageParams,
  type SingleOrBatchResult,
  type SingleResult,
  type TransactionFilters,
  type WalletParams,
} from './client';
export * from './errors';
export * from './schemas';
export {
  buildQuery,
  createTransport,
  type FetchLike,
  type HttpMethod,
  parseRetryAfter,
  path,
  type QueryValue,
  type RequestSpec,
  type Transport,
  type TransportOptions,
} from './transport';
