import { describe, expect, it } from 'vitest';
import { approveConfirmLabel } from './approve-label';

describe('approveConfirmLabel', () => {
  it.each(['withdraw', 'withdrawSign', 'swap', 'payout', 'contractWrite', 'retry'])(
    'says Approve and send for the last approval of a %s',
    (kind) => {
      expect(approveConfirmLabel({ kind }, true)).toBe('Approve and send');
    },
  );

  it.each(['policyEdit', 'settlementRule', 'whitelistAdd', 'userCreate', 'walletConnect'])(
    'says Approve and apply for the last approval of a %s, which moves no money',
    (kind) => {
      expect(approveConfirmLabel({ kind }, true)).toBe('Approve and apply');
    },
  );

  it('says Confirm approval while more approvals are needed, whatever the kind', () => {
    expect(approveConfirmLabel({ kind: 'withdraw' }, false)).toBe('Confirm approval');
    expect(approveConfirmLabel({ kind: 'policyEdit' }, false)).toBe('Confirm approval');
  });
});
