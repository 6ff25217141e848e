'use server';
import { z } from 'zod';
import { defineAction, ok } from '@/lib/actions/define-action';
import { currentDb } from '@/lib/server/services';
import { type AuditedStatement, auditedStatementHashes } from '@/lib/server/statements';

const verifyStatementFile = defineAction<z.ZodType<{ walletId: string; sha256: string }>, AuditedStatement[]>(
  {
    permission: 'read',
    input: z.object({
      walletId: z.string().min(1).max(200),
      // The browser hashes the file's bytes itself: the file never leaves the person's machine.
      sha256: z.string().regex(/^[0-9a-f]{64}$/, 'A SHA-256 is 64 hexadecimal characters'),
    }),
    invalid: 'first-issue',
    context: 'verify statement file',
    target: (input) => input.walletId,
    audit: {
      action: 'statement.verify',
      target: (input) => input.walletId,
      input: (input, data) => ({ sha256: input.sha256, matches: data?.length ?? 0 }),
    },
    run: async ({ input }) =>
      ok(await auditedStatementHashes(await currentDb(), input.walletId, input.sha256)),
  },
);

/** The audited statements of a wallet whose file had this SHA-256: the file is unchanged when there is one. */
export async function verifyStatementFileAction(input: { walletId: string; sha256: string }) {
  return verifyStatementFile(input);
}

export type { AuditedStatement };
