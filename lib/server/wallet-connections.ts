import 'server-only';
// Changes to the console's list of connected wallets (reads live in ./wallets). Keys are verified by the
// caller before they get here; here they are only sealed and stored.
import { eq } from 'drizzle-orm';
import type { Wallet } from '@/lib/custody/schemas';
import { walletConnections } from '@/lib/db/schema';
import type { ConsoleServices } from './services';
import { forgetWalletConnection, PREVIOUS_KEY_GRACE_MS, sealApiKey } from './wallets';

/** What changing the list needs: the database, and the configuration's key that seals API keys. */
type Runtime = Pick<ConsoleServices, 'config' | 'database'>;

export async function insertWalletConnection(
  runtime: Runtime,
  wallet: Pick<Wallet, 'id' | 'name' | 'network' | 'address'> & { blockchain: { slug: string } },
  apiKey: string,
  createdBy: string,
) {
  const { db } = runtime.database;
  const [row] = await db
    .insert(walletConnections)
    .values({
      id: wallet.id,
      name: wallet.name,
      blockchain: wallet.blockchain.slug,
      network: wallet.network,
      address: wallet.address,
      apiKeySealed: sealApiKey(runtime, wallet.id, apiKey),
      apiKeyLast4: apiKey.slice(-4),
      createdBy,
    })
    .onConflictDoNothing()
    .returning();
  forgetWalletConnection(wallet.id);
  return row;
}

/**
 * Stores a new key; the one it replaces keeps verifying webhooks for PREVIOUS_KEY_GRACE_MS, since
 * deliveries signed before the rotation reached the service may still arrive.
 */
export async function replaceWalletKey(runtime: Runtime, walletId: string, apiKey: string, now = new Date()) {
  const { db } = runtime.database;
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(walletConnections)
      .where(eq(walletConnections.id, walletId))
      .limit(1);
    if (!current) return undefined;
    const [row] = await tx
      .update(walletConnections)
      .set({
        apiKeySealed: sealApiKey(runtime, walletId, apiKey),
        apiKeyLast4: apiKey.slice(-4),
        previousApiKeySealed: current.apiKeySealed,
        previousKeyValidUntil: new Date(now.getTime() + PREVIOUS_KEY_GRACE_MS),
        updatedAt: now,
      })
      .where(eq(walletConnections.id, walletId))
      .returning();
    return row;
  });
  forgetWalletConnection(walletId);
  return row;
}

export async function deleteWalletConnection(runtime: Runtime, walletId: string) {
  const { db } = runtime.database;
  const [row] = await db.delete(walletConnections).where(eq(walletConnections.id, walletId)).returning();
  forgetWalletConnection(walletId);
  return row;
}
