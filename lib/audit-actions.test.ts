import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATION_KIND_WORDS, OPERATION_KINDS } from '@/lib/approvals/kinds';
import { OPERATIONS } from '@/lib/server/approvals/operations/registry';
import { auditActionsMatching, describeAuditAction } from './audit-actions';

// The steps the engine audits for a kind, as `${row.type}.<step>` or `${type.key}.<step>`, read from its
// source so a step added there without words here fails this test.
const ENGINE = fileURLToPath(new URL('./server/approvals/engine', import.meta.url));
const auditedSteps = [
  ...new Set(
    readdirSync(ENGINE, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .flatMap((name) => [
        ...readFileSync(join(ENGINE, name), 'utf8').matchAll(
          /`\$\{(?:row\.type|type\.key)\}\.([a-zA-Z_.]+)`/g,
        ),
      ])
      .map((match) => match[1]),
  ),
].sort();
// `${type.key}.${verdict}` (approve, reject) and the request's permission are not literal steps above.
const STEPS = [...new Set([...auditedSteps, 'request', 'approve', 'reject'])].sort();

describe('audit words for operation kinds', () => {
  it('reads the steps the engine audits', () => {
    expect(auditedSteps).toEqual(
      expect.arrayContaining(['cancel', 'duplicate', 'expire', 'outcome', 'resolve', 'resubmit', 'submit']),
    );
    expect(auditedSteps).toEqual(
      expect.arrayContaining(['resolve.confirm', 'resolve.discard', 'resolve.propose']),
    );
  });

  it('registers every kind of the browser-safe list, with its words', () => {
    expect(OPERATIONS.map((type) => type.key).sort()).toEqual([...OPERATION_KINDS].sort());
    for (const type of OPERATIONS) expect(type.label).toBe(OPERATION_KIND_WORDS[type.key].label);
  });

  it.each(OPERATION_KINDS)('gives every audited step of %s words, not its code', (kind) => {
    for (const step of STEPS) {
      const code = `${kind}.${step}`;
      const words = describeAuditAction(code);
      expect(words.area, code).toBe('Approvals');
      expect(words.label, code).not.toBe(code);
      expect(words.label, code).toContain(OPERATION_KIND_WORDS[kind].noun);
    }
  });

  it("gives each registered kind's request entry words (its request permission is the audited action)", () => {
    for (const type of OPERATIONS) {
      const code = type.permissions.request;
      expect(describeAuditAction(code).label, code).not.toBe(code);
      expect(describeAuditAction(code).area, code).not.toBe('Other');
    }
  });

  it('keeps the sentences of the first kinds', () => {
    expect(describeAuditAction('withdraw.request').label).toBe('Requested a withdrawal');
    expect(describeAuditAction('withdrawSign.approve').label).toBe('Approved a sign-only withdrawal');
    expect(describeAuditAction('contractWrite.reject').label).toBe('Rejected a contract call');
    expect(describeAuditAction('swap.expire').label).toBe('Expired a swap request');
    expect(describeAuditAction('policyEdit.approve').label).toBe('Approved an approval policy change');
  });

  it('finds the codes of a kind by its words', () => {
    expect(auditActionsMatching('wallet key rotation')).toEqual(
      expect.arrayContaining(['walletRotate.request', 'walletRotate.approve', 'walletRotate.expire']),
    );
  });
});
