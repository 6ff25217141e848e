// The words on the button that gives a request its last approval: what that approval sets off.
import { isConfigurationReview } from './configuration';

/**
 * "Approve and send" where the last approval sends money (or a signing) to the custody service; "Approve and
 * apply" for a configuration change, which moves no money and takes effect once approved. Before the last
 * approval nothing happens but the record.
 */
export function approveConfirmLabel(review: { kind: string }, lastApproval: boolean): string {
  if (!lastApproval) return 'Confirm approval';
  return isConfigurationReview(review) ? 'Approve and apply' : 'Approve and send';
}
