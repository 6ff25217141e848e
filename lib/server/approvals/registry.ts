import 'server-only';

// The operation kinds live in operations/ (one file per kind); this keeps their registry at its old address.
export { OPERATION_TYPES, operationType } from './operations/registry';
