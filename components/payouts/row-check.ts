// A server check of payout rows (a file's, a schedule's recipients) as the request flow takes it: the review to
// show, or a refusal saying how many rows have problems while the rows go to be listed each beside its own.
import type { OperationReview } from '@/lib/approvals/kinds';

interface RowProblems {
  problemRows: number;
  total: number;
}

type RowCheck<P extends RowProblems, R extends OperationReview> =
  | { problems: null; review: R; requiredApprovals: number }
  | { problems: P; review: null };

type Result<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };

export function reviewOfRowCheck<P extends RowProblems, R extends OperationReview>(
  checked: Result<RowCheck<P, R>>,
  show: (problems: P | null) => void,
  words: { row: string; rows: string; advice: string },
): Result<{ review: OperationReview; requiredApprovals: number }> {
  if (!checked.ok) {
    show(null);
    return checked;
  }
  const { data } = checked;
  if ('requiredApprovals' in data) {
    show(null);
    return { ok: true, data: { review: data.review, requiredApprovals: data.requiredApprovals } };
  }
  show(data.problems);
  const { problemRows, total } = data.problems;
  return {
    ok: false,
    error: `${problemRows} of ${total} ${total === 1 ? `${words.row} has` : `${words.rows} have`} problems${words.advice} Nothing was created.`,
  };
}
