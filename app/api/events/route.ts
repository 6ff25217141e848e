// Server-sent events: custody events of connected wallets, for the console's live updates.
import { type CustodyEvent, onCustodyEvent } from '@/lib/server/events';
import { withPermission } from '@/lib/server/route';
import { currentDb } from '@/lib/server/services';
import { sessionStands } from '@/lib/server/session';
import { findWalletConnection, listWalletConnections } from '@/lib/server/wallets';

export const dynamic = 'force-dynamic';

const HEARTBEAT_MS = 15_000;
// The session is checked when the stream opens and again at every heartbeat: a session ended (signed out,
// ended from the sessions list, the user disabled or changed) closes its stream within one interval, plus the
// session cache's window when the change was made by another console instance.
const SESSION_CHECK_MS = 15_000;
// Streams also end after a while; the browser reconnects, which checks the session and permission afresh.
const MAX_STREAM_MS = 10 * 60_000;

export const GET = withPermission('read', async ({ request, actor }) => {
  const db = await currentDb();
  const connected = new Set((await listWalletConnections()).map((w) => w.id));
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const forward = async (event: CustodyEvent) => {
        if (!connected.has(event.walletId)) {
          // A wallet connected after the stream opened.
          if (!(await findWalletConnection(event.walletId))) return;
          connected.add(event.walletId);
        }
        send(`id: ${event.id}\nevent: custody\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = onCustodyEvent(forward);
      const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS);
      // The browser is told the session ended (so it shows the signed-out state instead of reconnecting).
      const sessionCheck = setInterval(() => {
        sessionStands(db, actor.sessionId, actor.id).then(
          (stands) => {
            if (stands) return;
            send('event: session-ended\ndata: {}\n\n');
            cleanup();
          },
          // A failed check (the database briefly away) is not an ended session: the next one decides.
          () => {},
        );
      }, SESSION_CHECK_MS);
      const lifetime = setTimeout(() => cleanup(), MAX_STREAM_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        clearTimeout(lifetime);
        request.signal.removeEventListener('abort', cleanup);
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      request.signal.addEventListener('abort', cleanup);
      // `retry` tells EventSource how soon to reconnect; the comment flushes headers at once.
      send('retry: 3000\n: connected\n\n');
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
});
