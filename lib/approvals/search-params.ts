// The approvals queue's list as URL state (`?scope=`), parsed once with the same parser by the page and
// the queue's links.
import { createLoader, createSerializer, parseAsStringLiteral } from 'nuqs/server';

export const APPROVAL_SCOPES = ['needs-me', 'open', 'mine', 'all'] as const;
export type ApprovalScope = (typeof APPROVAL_SCOPES)[number];

const approvalsParsers = {
  scope: parseAsStringLiteral(APPROVAL_SCOPES).withDefault('needs-me'),
};

export const loadApprovalsSearchParams = createLoader(approvalsParsers);
export const approvalsUrl = createSerializer(approvalsParsers);
