import 'server-only';
// Every endpoint of the sandbox, grouped by resource as the spec groups them. The router matches requests
// against this list and the OpenAPI document describes it.
import { addressEndpoints } from './addresses';
import { autoSettlementEndpoints } from './auto-settlement';
import { balanceEndpoints } from './balances';
import { beneficiaryEndpoints } from './beneficiaries';
import { contractEndpoints } from './contracts';
import { controlEndpoints } from './control';
import type { Endpoint } from './endpoint';
import { miscellaneousEndpoints } from './miscellaneous';
import { signingEndpoints } from './signing';
import { swapEndpoints } from './swaps';
import { transactionEndpoints } from './transactions';
import { walletEndpoints } from './wallets';
import { webhookEndpoints } from './webhooks';
import { withdrawalEndpoints } from './withdrawals';

export type { Endpoint, Result, SandboxContext } from './endpoint';

export const ENDPOINTS: readonly Endpoint[] = [
  ...transactionEndpoints,
  ...walletEndpoints,
  ...addressEndpoints,
  ...beneficiaryEndpoints,
  ...autoSettlementEndpoints,
  ...withdrawalEndpoints,
  ...contractEndpoints,
  ...swapEndpoints,
  ...signingEndpoints,
  ...webhookEndpoints,
  ...balanceEndpoints,
  ...miscellaneousEndpoints,
  ...controlEndpoints,
];
