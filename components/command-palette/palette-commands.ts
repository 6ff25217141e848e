import 'server-only';
// What the command palette offers by name: the pages and the actions a person may open, decided on
// the server from the permission table. The browser receives only the allowed entries.
import type { Role } from '@/lib/db/schema';
import { type Action, can } from '@/lib/server/permissions';

export interface PaletteCommand {
  id: string;
  group: 'Pages' | 'Actions';
  label: string;
  /** A second line: where it leads. */
  hint?: string;
  href: string;
  /** Other words a person might type for it. */
  keywords?: string[];
  /** Belongs to one wallet: listed once something is typed, so the empty palette stays short. */
  perWallet?: boolean;
}

interface Entry extends Omit<PaletteCommand, 'id'> {
  action: Action;
}

const CONSOLE_ENTRIES: Entry[] = [
  { group: 'Pages', label: 'Wallets', href: '/wallets', action: 'read', keywords: ['overview', 'balances'] },
  {
    group: 'Pages',
    label: 'Approvals',
    href: '/approvals',
    action: 'withdraw.approve',
    keywords: ['requests', 'queue', 'four eyes', 'review'],
  },
  {
    group: 'Pages',
    label: 'Webhooks',
    href: '/webhooks',
    action: 'read',
    keywords: ['deliveries', 'events'],
  },
  { group: 'Pages', label: 'Audit log', href: '/audit', action: 'audit.view', keywords: ['history', 'log'] },
  {
    group: 'Pages',
    label: 'Users',
    href: '/admin/users',
    action: 'users.manage',
    keywords: ['admin', 'roles'],
  },
  {
    group: 'Pages',
    label: 'Wallet connections',
    href: '/admin/wallets',
    action: 'wallets.manage',
    keywords: ['admin', 'api key'],
  },
  {
    group: 'Pages',
    label: 'Approval policy',
    href: '/admin/policy',
    action: 'policy.edit',
    keywords: ['admin', 'threshold', 'freeze'],
  },
  {
    group: 'Actions',
    label: 'Review requests waiting for approval',
    href: '/approvals',
    action: 'withdraw.approve',
    keywords: ['approve', 'reject'],
  },
  {
    group: 'Actions',
    label: 'Add a user',
    href: '/admin/users',
    action: 'users.manage',
    keywords: ['invite'],
  },
  { group: 'Actions', label: 'Connect a wallet', href: '/admin/wallets', action: 'wallets.manage' },
];

const WALLET_PAGES: Array<Omit<Entry, 'group' | 'href'> & { path: string }> = [
  {
    label: 'Transactions',
    path: 'transactions',
    action: 'read',
    keywords: ['history', 'deposits', 'export'],
  },
  { label: 'Addresses', path: 'addresses', action: 'read' },
  { label: 'Beneficiaries', path: 'beneficiaries', action: 'read' },
  { label: 'Auto-settlement', path: 'settlement', action: 'read', keywords: ['rules', 'sweep'] },
  { label: 'Webhook deliveries', path: 'webhooks', action: 'read' },
];
const WALLET_ACTIONS: Array<Omit<Entry, 'group' | 'href'> & { path: string }> = [
  { label: 'Withdraw from', path: 'withdraw', action: 'withdraw.request', keywords: ['send', 'pay out'] },
  { label: 'Swap in', path: 'swaps', action: 'swap.request', keywords: ['exchange', 'convert'] },
  { label: 'Call a contract on', path: 'contracts', action: 'contract.read', keywords: ['abi', 'erc20'] },
  { label: 'Sign typed data with', path: 'signing', action: 'typedDataSign.request', keywords: ['eip-712'] },
  { label: 'Whitelist an address in', path: 'whitelist', action: 'whitelistAdd.request', keywords: ['aml'] },
];

/** Every entry the role may open, with per-wallet pages and actions for each connected wallet. */
export function paletteCommandsFor(
  role: Role,
  wallets: Array<{ id: string; name: string }>,
): PaletteCommand[] {
  const out: PaletteCommand[] = [];
  const add = ({ action, ...entry }: Entry) => {
    if (can(role, action)) out.push({ id: `${entry.group}:${entry.label}:${entry.href}`, ...entry });
  };
  for (const entry of CONSOLE_ENTRIES) add(entry);
  for (const wallet of wallets) {
    const base = `/wallets/${encodeURIComponent(wallet.id)}`;
    const perWallet = true;
    add({
      group: 'Pages',
      label: wallet.name,
      hint: 'Wallet overview',
      href: base,
      action: 'read',
      perWallet,
    });
    for (const { path, label, ...rest } of WALLET_PAGES) {
      add({ ...rest, group: 'Pages', label: `${wallet.name}: ${label}`, href: `${base}/${path}`, perWallet });
    }
    for (const { path, label, ...rest } of WALLET_ACTIONS) {
      add({
        ...rest,
        group: 'Actions',
        label: `${label} ${wallet.name}`,
        href: `${base}/${path}`,
        perWallet,
      });
    }
  }
  return out;
}
