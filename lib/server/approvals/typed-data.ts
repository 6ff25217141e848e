import 'server-only';

// Typed-data signing is the operation kind in operations/typed-data-sign.ts; its payload type is named here too.
export type { TypedDataPayload } from './operations/typed-data-sign';
