'use client';
// Opens the server-sent event stream once per console tab, turns each custody event into query
// invalidations (open tables and drawers refetch), and shows whether the stream is up.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from '@/components/ui/toast';
import { backoffDelay } from '@/lib/backoff';
import { approvalKeys, transactionKeys, walletKeys, webhookKeys } from '@/lib/query-keys';
import { cn } from '@/lib/utils';
import { setLiveStatus, useLiveStatus } from './live-status';

/** What `/api/events` sends (lib/server/events.ts `CustodyEvent`). */
interface CustodyEventMessage {
  id: string;
  walletId: string;
  event: string;
  transactionId: string;
  status: string;
  type: string;
  reference: string;
  receivedAt: string;
}

export interface LiveEventsProps {
  /** Finance and admin are told when a withdrawal settles or fails. */
  notifyWithdrawals?: boolean;
}

const RECONNECT_MAX_MS = 30_000;

function invalidateFor(queryClient: QueryClient, event: CustodyEventMessage) {
  const { walletId, transactionId } = event;
  for (const queryKey of [
    transactionKeys.all(walletId),
    transactionKeys.detail(walletId, transactionId),
    walletKeys.detail(walletId),
    webhookKeys.all(walletId),
    webhookKeys.summary(),
    approvalKeys.all(),
  ]) {
    void queryClient.invalidateQueries({ queryKey });
  }
  // The custody service logs a webhook delivery once the console has answered it, so the log read as the webhook
  // arrives may not show it yet: the wallet's webhook log is read again 1.5 s later.
  setTimeout(() => void queryClient.invalidateQueries({ queryKey: webhookKeys.all(walletId) }), 1500);
}

/** After a gap in the stream, events may have been missed: refresh everything live-updated. */
function invalidateAll(queryClient: QueryClient) {
  for (const prefix of ['transactions', 'transaction', 'wallet', 'webhooks', 'approvals']) {
    void queryClient.invalidateQueries({ queryKey: [prefix] });
  }
}

function parse(data: string): CustodyEventMessage | null {
  try {
    const value = JSON.parse(data) as Partial<CustodyEventMessage>;
    return typeof value.walletId === 'string' && typeof value.event === 'string'
      ? (value as CustodyEventMessage)
      : null;
  } catch {
    return null;
  }
}

export function LiveEvents({ notifyWithdrawals = false }: LiveEventsProps) {
  const queryClient = useQueryClient();
  const notifyRef = useRef(notifyWithdrawals);
  notifyRef.current = notifyWithdrawals;

  useEffect(() => {
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let wasDown = false;
    let disposed = false;
    let signedOutNow = false;

    const signedOut = () => {
      signedOutNow = true;
      clearTimeout(retryTimer);
      source?.close();
      setLiveStatus('signed-out');
    };

    const connect = () => {
      if (disposed) return;
      source = new EventSource('/api/events');
      source.onopen = () => {
        attempts = 0;
        setLiveStatus('live');
        if (wasDown) invalidateAll(queryClient);
        wasDown = false;
      };
      source.addEventListener('custody', (message) => {
        const event = parse((message as MessageEvent<string>).data);
        if (!event) return;
        invalidateFor(queryClient, event);
        // One toast per kind, replaced by the next: settlements across the console never push the outcome of
        // the person's own action out of sight.
        if (notifyRef.current && event.event === 'withdraw.success') {
          toast.success('Withdrawal settled', {
            id: 'settled',
            description: `Reference ${event.reference}`,
          });
        } else if (notifyRef.current && event.event === 'withdraw.failed') {
          toast.error('Withdrawal failed', {
            id: 'failed',
            description: `Reference ${event.reference}`,
          });
        }
      });
      // The server ended the stream because the session ended: stay closed and say so.
      source.addEventListener('session-ended', () => signedOut());
      source.onerror = () => {
        if (disposed || signedOutNow) return;
        wasDown = true;
        setLiveStatus('reconnecting');
        // EventSource retries by itself unless the server refused the stream (401/403, or a non-SSE
        // answer); then it closes, and we ask why: a session that has ended stays signed out, anything
        // else is retried with backoff.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          void sessionEnded().then((ended) => {
            if (disposed) return;
            if (ended) return signedOut();
            attempts++;
            const delay = backoffDelay(attempts, { baseMs: 1000, capMs: RECONNECT_MAX_MS });
            retryTimer = setTimeout(connect, delay);
          });
        }
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(retryTimer);
      source?.close();
      if (!signedOutNow) setLiveStatus('connecting');
    };
  }, [queryClient]);

  return <LiveIndicator />;
}

/** Whether the stream was refused because the session has ended (401), asked without opening a stream. */
async function sessionEnded(): Promise<boolean> {
  const controller = new AbortController();
  try {
    const response = await fetch('/api/events', { cache: 'no-store', signal: controller.signal });
    return response.status === 401;
  } catch {
    return false;
  } finally {
    // An open stream (the session stands) is not read: only its status was wanted.
    controller.abort();
  }
}

function LiveIndicator({ className }: { className?: string }) {
  const { status } = useLiveStatus();
  if (status === 'signed-out') return <SignedOutIndicator className={className} />;
  const live = status === 'live';
  const text = live ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  return (
    <span
      role="status"
      aria-label={live ? 'Live updates: connected' : 'Live updates: not connected, refreshing periodically'}
      title={
        live
          ? 'Updates arrive as they happen'
          : 'Updates are checked periodically until the connection is back'
      }
      className={cn(
        'inline-flex items-center gap-1.5 rounded-md border px-2 py-0.5 text-xs font-medium',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 rounded-full',
          live ? 'bg-success' : 'bg-warning animate-pulse motion-reduce:animate-none',
        )}
      />
      {text}
    </span>
  );
}

/** The session ended (signed out elsewhere, ended from the sessions list, the user disabled). */
function SignedOutIndicator({ className }: { className?: string }) {
  return (
    <span
      role="status"
      aria-label="Live updates: signed out"
      className={cn(
        'inline-flex items-center gap-1.5 rounded-md border border-destructive px-2 py-0.5 text-xs font-medium',
        className,
      )}
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-destructive" />
      Signed out
      <a href="/sign-in" className="underline underline-offset-2">
        Sign in again
      </a>
    </span>
  );
}
