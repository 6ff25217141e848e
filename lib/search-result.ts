// What GET /api/search answers: the shape the server builds and the command palette reads.

export interface SearchHit {
  kind: 'transaction' | 'address';
  walletId: string;
  walletName: string;
  id: string;
  title: string;
  subtitle: string;
  href: string;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
  /** Wallets that could not be searched, with the reason (the upstream's message). */
  failures: Array<{ walletId: string; walletName: string; message: string }>;
}
