// The spending limits a request falls under, in its review: what each window holds, what this request adds,
// and what is left after it (limit − counted − this request).
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { breachWords, type LimitCheck, type LimitCheckRow, limitAmountWords } from '@/lib/approvals/limits';

function amount(row: LimitCheckRow, value: string | null): string {
  return value === null ? 'unknown' : limitAmountWords(value, row.unit, row.symbol);
}

export function LimitCheckTable({ check }: { check: LimitCheck }) {
  if (check.rows.length === 0) return null;
  return (
    <div className="grid gap-2">
      <h3 className="font-medium">Spending limits</h3>
      <Table aria-label="Spending limits">
        <TableHeader>
          <TableRow>
            <TableHead>Limit</TableHead>
            <TableHead className="text-right">Counted in the window</TableHead>
            <TableHead className="text-right">This request</TableHead>
            <TableHead className="text-right">Left after</TableHead>
            <TableHead>Outcome</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {check.rows.map((row) => (
            <TableRow key={`${row.ruleId}-${row.destination ?? ''}`}>
              <TableCell className="whitespace-normal">
                {row.rule}
                {row.destination ? (
                  <span className="block font-mono text-xs break-all text-muted-foreground">
                    to {row.destination}
                  </span>
                ) : null}
              </TableCell>
              <TableCell className="text-right whitespace-nowrap">{amount(row, row.used)}</TableCell>
              <TableCell className="text-right whitespace-nowrap">{amount(row, row.request)}</TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {amount(row, row.remainingAfter)}
              </TableCell>
              <TableCell>
                {row.breached ? (
                  <Badge variant="warning">Over the limit: {breachWords(row)}</Badge>
                ) : (
                  <Badge variant="success">Within the limit</Badge>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
