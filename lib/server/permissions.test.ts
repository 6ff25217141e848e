import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@/lib/roles';
import { ACTIONS, type Action, can } from './permissions';

// The expected table, written out cell by cell: a change to PERMISSIONS must change this too.
const Y = true;
const N = false;
const EXPECTED: Record<Action, Record<Role, boolean>> = {
  read: { admin: Y, finance: Y, support: Y, viewer: Y },
  'audit.view': { admin: Y, finance: N, support: N, viewer: Y },
  'webhook.resend': { admin: Y, finance: N, support: Y, viewer: N },
  'transaction.retry': { admin: Y, finance: Y, support: N, viewer: N },
  'retry.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'sandbox.deposit': { admin: Y, finance: Y, support: N, viewer: N },
  'fee.estimate': { admin: Y, finance: Y, support: N, viewer: N },
  'withdraw.request': { admin: Y, finance: Y, support: N, viewer: N },
  'withdraw.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'withdrawSign.request': { admin: Y, finance: Y, support: N, viewer: N },
  'withdrawSign.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'swap.request': { admin: Y, finance: Y, support: N, viewer: N },
  'swap.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'contract.read': { admin: Y, finance: Y, support: N, viewer: N },
  'contractWrite.request': { admin: Y, finance: N, support: N, viewer: N },
  'contractWrite.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'contractSign.request': { admin: Y, finance: N, support: N, viewer: N },
  'contractSign.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'typedDataSign.request': { admin: Y, finance: N, support: N, viewer: N },
  'typedDataSign.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'depositAddress.create': { admin: Y, finance: Y, support: Y, viewer: N },
  'privateKey.reveal': { admin: Y, finance: N, support: N, viewer: N },
  'users.manage': { admin: Y, finance: N, support: N, viewer: N },
  'wallets.manage': { admin: Y, finance: N, support: N, viewer: N },
  'policy.edit': { admin: Y, finance: N, support: N, viewer: N },
  'freeze.toggle': { admin: Y, finance: N, support: N, viewer: N },
  'userCreate.request': { admin: Y, finance: N, support: N, viewer: N },
  'userCreate.approve': { admin: Y, finance: N, support: N, viewer: N },
  'userReset.request': { admin: Y, finance: N, support: N, viewer: N },
  'userReset.approve': { admin: Y, finance: N, support: N, viewer: N },
  'userRole.request': { admin: Y, finance: N, support: N, viewer: N },
  'userRole.approve': { admin: Y, finance: N, support: N, viewer: N },
  'userEnable.request': { admin: Y, finance: N, support: N, viewer: N },
  'userEnable.approve': { admin: Y, finance: N, support: N, viewer: N },
  'userDisable.request': { admin: Y, finance: N, support: N, viewer: N },
  'userDisable.approve': { admin: Y, finance: N, support: N, viewer: N },
  'policyEdit.request': { admin: Y, finance: N, support: N, viewer: N },
  'policyEdit.approve': { admin: Y, finance: N, support: N, viewer: N },
  'limitEdit.request': { admin: Y, finance: N, support: N, viewer: N },
  'limitEdit.approve': { admin: Y, finance: N, support: N, viewer: N },
  'freezeLift.request': { admin: Y, finance: N, support: N, viewer: N },
  'freezeLift.approve': { admin: Y, finance: N, support: N, viewer: N },
  'walletConnect.request': { admin: Y, finance: N, support: N, viewer: N },
  'walletConnect.approve': { admin: Y, finance: N, support: N, viewer: N },
  'walletRotate.request': { admin: Y, finance: N, support: N, viewer: N },
  'walletRotate.approve': { admin: Y, finance: N, support: N, viewer: N },
  'walletRemove.request': { admin: Y, finance: N, support: N, viewer: N },
  'walletRemove.approve': { admin: Y, finance: N, support: N, viewer: N },
  'privateKeyReveal.request': { admin: Y, finance: N, support: N, viewer: N },
  'privateKeyReveal.approve': { admin: Y, finance: N, support: N, viewer: N },
  'addressBookSave.request': { admin: Y, finance: N, support: N, viewer: N },
  'addressBookSave.approve': { admin: Y, finance: N, support: N, viewer: N },
  'coolingOffEdit.request': { admin: Y, finance: N, support: N, viewer: N },
  'coolingOffEdit.approve': { admin: Y, finance: N, support: N, viewer: N },
  'serviceTokenCreate.request': { admin: Y, finance: N, support: N, viewer: N },
  'serviceTokenCreate.approve': { admin: Y, finance: N, support: N, viewer: N },
  'serviceTokenRotate.request': { admin: Y, finance: N, support: N, viewer: N },
  'serviceTokenRotate.approve': { admin: Y, finance: N, support: N, viewer: N },
  'serviceToken.revoke': { admin: Y, finance: N, support: N, viewer: N },
  'payoutSchedule.request': { admin: Y, finance: Y, support: N, viewer: N },
  'payoutSchedule.approve': { admin: Y, finance: Y, support: N, viewer: N },
  'settlementToggle.request': { admin: Y, finance: N, support: N, viewer: N },
  'settlementToggle.approve': { admin: Y, finance: N, support: N, viewer: N },
  'settlementRule.request': { admin: Y, finance: N, support: N, viewer: N },
  'settlementRule.approve': { admin: Y, finance: N, support: N, viewer: N },
  'whitelistAdd.request': { admin: Y, finance: N, support: N, viewer: N },
  'whitelistAdd.approve': { admin: Y, finance: N, support: N, viewer: N },
  'whitelistRemove.request': { admin: Y, finance: N, support: N, viewer: N },
  'whitelistRemove.approve': { admin: Y, finance: N, support: N, viewer: N },
  'beneficiaryDelete.request': { admin: Y, finance: N, support: N, viewer: N },
  'beneficiaryDelete.approve': { admin: Y, finance: N, support: N, viewer: N },
};

describe('permissions table', () => {
  it('covers exactly the actions of the expected table', () => {
    expect([...ACTIONS].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  const cells = ACTIONS.flatMap((action) => ROLES.map((role) => [action, role] as const));
  it.each(cells)('%s for %s', (action, role) => {
    expect(can(role, action)).toBe(EXPECTED[action][role]);
  });

  it('grants nothing without a role', () => {
    expect(ACTIONS.some((a) => can(undefined, a) || can(null, a))).toBe(false);
  });

  it('never lets support or viewer move money or change rules', () => {
    // A new deposit address only receives money: support opens them for customers.
    const readsOrReceives = ['read', 'audit.view', 'webhook.resend', 'depositAddress.create'];
    const moving = ACTIONS.filter((a) => !readsOrReceives.includes(a));
    for (const action of moving) {
      expect(can('support', action), action).toBe(false);
      expect(can('viewer', action), action).toBe(false);
    }
  });
});
