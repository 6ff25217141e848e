import 'server-only';
import { CustodyError } from '@/lib/custody/errors';
import { logger } from './logger';

/** The one sentence for a wallet id the console holds no connection for. */
export const WALLET_NOT_CONNECTED = 'This wallet is not connected to the console.';

/**
 * Turns an unexpected failure into what a person may read: the upstream's own message for custody
 * errors, a generic sentence with the request id otherwise. The raw error is logged, never returned.
 */
export function describeFailure(
  error: unknown,
  requestId: string | null,
  context: string,
): { message: string; status: number } {
  if (error instanceof CustodyError) {
    logger.warn(
      { requestId, context, status: error.status, kind: error.kind, path: error.path },
      'custody call failed',
    );
    const status = error.status >= 400 && error.status < 600 ? error.status : 502;
    const prefix =
      error.kind === 'timeout' || error.kind === 'network' ? 'The custody service did not answer' : null;
    return { message: prefix ? `${prefix}: ${error.message}` : error.message, status };
  }
  logger.error({ requestId, context, err: error }, 'unexpected failure');
  return {
    message: `Something went wrong on the server${requestId ? ` (reference ${requestId})` : ''}. Nothing was changed twice; try again.`,
    status: 500,
  };
}
