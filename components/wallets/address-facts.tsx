// What the custody service says about one address: its details, its configuration in plain words, its metadata.
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { Address } from '@/lib/custody/schemas';
import { formatDateTime } from '@/lib/format';

/** One setting in plain words: what it is, its value ("On" / "Off"), and what that means here. */
function Setting({
  label,
  on,
  words = ['On', 'Off'],
  hint,
}: {
  label: string;
  on: boolean | undefined;
  words?: [string, string];
  hint: string;
}) {
  return (
    <div className="flex items-start justify-between gap-4 border-b pb-2">
      <dt>
        <div>{label}</div>
        <div className="text-xs text-muted-foreground">{hint}</div>
      </dt>
      <dd>
        {on === undefined ? (
          <span className="text-muted-foreground">Not reported</span>
        ) : (
          <Badge variant={on ? 'success' : 'secondary'}>{on ? words[0] : words[1]}</Badge>
        )}
      </dd>
    </div>
  );
}

function Fact({
  label,
  children,
  alignEnd,
}: {
  label: string;
  children: React.ReactNode;
  alignEnd?: boolean;
}) {
  return (
    <div className="flex items-start justify-between gap-4 border-b pb-2">
      <dt>{label}</dt>
      <dd className={alignEnd ? 'text-right' : undefined}>{children}</dd>
    </div>
  );
}

export interface AddressFactsProps {
  address: Address;
  /** The wallet's chain, for addresses the service reports without one. */
  walletBlockchain: string;
}

/** The Details and Configuration cards side by side. */
export function AddressFacts({ address, walletBlockchain }: AddressFactsProps) {
  const config = address.configurations;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle id="address-details-heading">Details</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm">
            <Fact label="Derivation path">
              <code className="font-mono">{address.derivationPath ?? 'None (external address)'}</code>
            </Fact>
            <Fact label="Network">
              <span className="capitalize">
                {address.blockchain?.name ?? walletBlockchain} · {address.network}
              </span>
            </Fact>
            <Fact label="AML screening" alignEnd>
              {config.aml ? `${config.aml.provider}: ${config.aml.message}` : 'Not screened'}
            </Fact>
            <Fact label="Created">{formatDateTime(address.createdAt)}</Fact>
            <Fact label="Updated">{formatDateTime(address.updatedAt)}</Fact>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle id="address-config-heading">Configuration</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm">
            <Setting
              label="Auto-sweep"
              on={config.disableAutoSweep === undefined ? undefined : !config.disableAutoSweep}
              hint={
                config.disableAutoSweep
                  ? 'Deposits stay on this address.'
                  : 'Deposits move on to the master wallet once they settle.'
              }
            />
            <Setting
              label="Gasless withdrawals"
              on={config.enableGaslessWithdraw}
              hint="When on, withdrawals from this address need no native coin for gas."
            />
            <Setting
              label="Private key reveal"
              on={config.showPrivateKey}
              words={['Allowed', 'Not allowed']}
              hint="Whether the custody service returns the key on request."
            />
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}

/** Caller-supplied data stored with the address. */
export function AddressMetadata({ metadata }: { metadata: Address['metadata'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="address-metadata-heading">Metadata</CardTitle>
        <CardDescription>Caller-supplied data stored with the address.</CardDescription>
      </CardHeader>
      <CardContent>
        {metadata && Object.keys(metadata).length > 0 ? (
          <pre className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs">
            {JSON.stringify(metadata, null, 2)}
          </pre>
        ) : (
          <p className="text-sm text-muted-foreground">No metadata.</p>
        )}
      </CardContent>
    </Card>
  );
}
