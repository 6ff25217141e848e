// The signature with the console's own check: the address it recovers to must be the signing address.
import { CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import type { TypedDataResult } from '@/lib/approvals/signing';

export function TypedDataResultPanel({ result }: { result: TypedDataResult }) {
  const rows: Array<[string, string]> = [
    ['r', result.r],
    ['s', result.s],
    ['v', String(result.v)],
    ['signature', result.signature],
  ];
  return (
    <section aria-labelledby="signature-heading" className="grid gap-3 rounded-lg border p-4">
      <h2 id="signature-heading" className="text-lg font-semibold">
        Signature
      </h2>
      {result.verified ? (
        <Alert variant="success">
          <CheckCircle2Icon aria-hidden />
          <AlertTitle>Verified</AlertTitle>
          <AlertDescription>
            <span>
              Recovers to <span className="font-mono break-all">{result.recoveredAddress}</span>, the signing
              address.
            </span>
          </AlertDescription>
        </Alert>
      ) : (
        <Alert variant="destructive">
          <XCircleIcon aria-hidden />
          <AlertTitle>Signature does not match the signing address</AlertTitle>
          <AlertDescription>
            {result.error ?? `Expected ${result.expectedAddress}.`} Do not use this signature.
          </AlertDescription>
        </Alert>
      )}
      <dl className="grid gap-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="font-mono text-xs break-all">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
