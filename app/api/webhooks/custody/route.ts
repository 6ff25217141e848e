// The custody service's webhook receiver. No session: the caller is the service, proven by the HMAC.
import { randomBytes } from 'node:crypto';
import { publishCustodyEvent } from '@/lib/server/events';
import { logger } from '@/lib/server/logger';
import { getDb, getRuntime } from '@/lib/server/runtime';
import { findWalletConnection, webhookKeysFor } from '@/lib/server/wallets';
import {
  parseWebhookBody,
  readBodyLimited,
  storeWebhookEvent,
  verifyWebhookSignature,
} from '@/lib/server/webhooks';

export const dynamic = 'force-dynamic';

const log = logger.child({ component: 'webhook-receiver' });

/** The one answer for a webhook the console will not take: unknown wallet or bad signature alike. */
const REFUSED = { received: false, error: 'Signature not accepted' } as const;
/** Stands in for a wallet's key when the wallet is unknown: the signature is checked (and fails) all the same. */
const UNKNOWN_WALLET_KEY = randomBytes(32).toString('hex');

function reply(status: number, body: Record<string, unknown>) {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

export async function POST(request: Request): Promise<Response> {
  const body = await readBodyLimited(request);
  if (!body.ok) return reply(body.status, { received: false, error: body.error });

  const parsed = parseWebhookBody(body.raw);
  if (!parsed.ok) return reply(parsed.status, { received: false, error: parsed.error });

  const { config } = await getRuntime();
  // An unknown wallet and a bad signature get one answer (status, body, and the same HMAC work), so the
  // receiver never tells a caller which wallet ids are connected. The log keeps the difference.
  const wallet = await findWalletConnection(parsed.walletId);
  const signature = request.headers.get(config.env.WEBHOOK_SIGNATURE_HEADER);
  const keys = wallet ? await webhookKeysFor(wallet.id) : [UNKNOWN_WALLET_KEY];
  const verified = verifyWebhookSignature(body.raw, signature, keys);
  if (!wallet || !verified) {
    log.warn(
      {
        walletId: parsed.walletId.slice(0, 100),
        known: Boolean(wallet),
        event: parsed.envelope.event,
        signed: Boolean(signature),
      },
      'webhook refused',
    );
    return reply(401, REFUSED);
  }

  try {
    const stored = await storeWebhookEvent(await getDb(), {
      raw: body.raw,
      walletId: wallet.id,
      envelope: parsed.envelope,
    });
    if (stored.duplicate) return reply(200, { received: true, duplicate: true });
    // Stored first, so a publishing hiccup loses only the live nudge, never the event; subscribers poll too.
    publishCustodyEvent(stored.event).catch((error) =>
      log.error({ err: error }, 'publishing a custody event failed'),
    );
    return reply(200, { received: true });
  } catch (error) {
    log.error({ err: error, walletId: wallet.id }, 'storing a webhook failed');
    // A 5xx makes the service retry later, which is what we want when the database hiccups.
    return reply(500, { received: false, error: 'Could not store the event' });
  }
}
