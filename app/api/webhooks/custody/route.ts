// The custody service's webhook receiver. No session: the caller is the service, proven by the HMAC.
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

function reply(status: number, body: Record<string, unknown>) {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

export async function POST(request: Request): Promise<Response> {
  const body = await readBodyLimited(request);
  if (!body.ok) return reply(body.status, { received: false, error: body.error });

  const parsed = parseWebhookBody(body.raw);
  if (!parsed.ok) return reply(parsed.status, { received: false, error: parsed.error });

  const { config } = await getRuntime();
  // Same answer for an unknown wallet and a bad signature would hide which wallets exist, but the service
  // needs to tell a misrouted webhook from a key problem; neither answer reveals anything secret.
  const wallet = await findWalletConnection(parsed.walletId);
  if (!wallet) return reply(401, { received: false, error: 'Unknown wallet' });

  const signature = request.headers.get(config.env.WEBHOOK_SIGNATURE_HEADER);
  if (!verifyWebhookSignature(body.raw, signature, await webhookKeysFor(wallet.id))) {
    log.warn(
      { walletId: wallet.id, event: parsed.envelope.event, signed: Boolean(signature) },
      'webhook signature refused',
    );
    return reply(401, { received: false, error: 'Invalid signature' });
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
