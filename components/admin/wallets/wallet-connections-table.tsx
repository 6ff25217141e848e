'use client';
import Link from 'next/link';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AddressText } from '@/components/wallets/address-text';
import { NetworkBadge } from '@/components/wallets/network-badge';
import { formatDateTime } from '@/lib/format';
import { RemoveWalletDialog } from './remove-wallet-dialog';
import { RotateKeyDialog } from './rotate-key-dialog';

export interface WalletConnectionRowView {
  id: string;
  name: string;
  blockchain: string;
  network: string;
  address: string;
  apiKeyLast4: string;
  createdBy: string;
  updatedAt: string;
}

export function WalletConnectionsTable({ wallets }: { wallets: WalletConnectionRowView[] }) {
  if (wallets.length === 0) {
    return (
      <div className="rounded-md border p-10 text-center">
        <p className="font-medium">No wallets connected.</p>
        <p className="mt-1 text-sm text-muted-foreground">Connect one with its wallet id and API key.</p>
      </div>
    );
  }
  return (
    <div className="rounded-md border">
      <Table aria-label="Connected wallets">
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Wallet</TableHead>
            <TableHead scope="col">Chain</TableHead>
            <TableHead scope="col">Address</TableHead>
            <TableHead scope="col">API key</TableHead>
            <TableHead scope="col">Connected by</TableHead>
            <TableHead scope="col">Updated</TableHead>
            <TableHead scope="col">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {wallets.map((w) => (
            <TableRow key={w.id}>
              <TableCell>
                <Link href={`/wallets/${w.id}`} className="font-medium underline-offset-4 hover:underline">
                  {w.name}
                </Link>
                <div className="font-mono text-xs text-muted-foreground">{w.id}</div>
              </TableCell>
              <TableCell>
                <div className="flex items-center gap-2">
                  <span className="capitalize">{w.blockchain}</span>
                  <NetworkBadge network={w.network} />
                </div>
              </TableCell>
              <TableCell>
                <AddressText
                  value={w.address}
                  what="wallet address"
                  blockchain={w.blockchain}
                  network={w.network}
                />
              </TableCell>
              <TableCell>
                <span className="sr-only">Key ending </span>
                <code className="font-mono">••••{w.apiKeyLast4}</code>
              </TableCell>
              <TableCell>{w.createdBy}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDateTime(w.updatedAt)}</TableCell>
              <TableCell>
                <div className="flex justify-end gap-2">
                  <RotateKeyDialog walletId={w.id} walletName={w.name} />
                  <RemoveWalletDialog walletId={w.id} walletName={w.name} />
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
