import 'server-only';

// Server entry of the custody client. Client components import types and request schemas from
// `@/lib/custody/schemas` instead: this module pulls in the transport, which holds the API key.
export {
  type CustodyClient,
  createCustodyClient,
} from './client';
export * from './errors';
export * from './schemas';
export type {
  FetchLike,
  TransportOptions,
} from './transport';
