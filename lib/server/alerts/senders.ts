import 'server-only';
// How an alert leaves the console: an email through the operator's SMTP server, or a Slack-compatible JSON post
// (`{ text }`) to a person's chat webhook. A failure is a short reason for the delivery log: never the SMTP URL,
// the webhook URL or anything the server answered beyond its status.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import nodemailer, { type Transporter } from 'nodemailer';
import { guardedLookup, type OutboundRules, outboundUrlProblem } from './outbound';

export interface AlertMessage {
  subject: string;
  body: string;
  /** The absolute address of the page the alert is about. */
  link: string;
}

export interface AlertSenders {
  email(to: string, message: AlertMessage): Promise<void>;
  chat(url: string, message: AlertMessage): Promise<void>;
  /** A system's webhook: the JSON body as stored, signed with the token's webhook secret. */
  system(url: string, secret: string, body: string): Promise<void>;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the receiver recomputes it with its webhook secret and
 * refuses an old `t`, so a captured delivery cannot be replayed later.
 */
function systemSignature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** A delivery failure whose message is safe to store and show. */
export class DeliveryError extends Error {}

export interface SenderSettings {
  /** SMTP_URL; without it the email channel reports that email is not set up. */
  smtpUrl?: string;
  from: string;
  rules: OutboundRules;
  timeoutMs?: number;
}

/** An email's text: the subject, the body, and the link it is about. */
export function messageText(message: AlertMessage): string {
  return `${message.subject}\n\n${message.body}\n\nOpen in the console: ${message.link}`;
}

/** Node's network error codes say what went wrong without naming anything secret. */
function reasonOf(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  const code = (error as { code?: unknown; responseCode?: unknown } | null)?.code;
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof responseCode === 'number') return `The mail server refused the message (${responseCode})`;
  if (typeof code === 'string') return `Could not deliver (${code})`;
  return 'Could not deliver';
}

export function createAlertSenders(settings: SenderSettings): AlertSenders {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  let transporter: Transporter | null = null;
  const mailer = () => {
    if (!settings.smtpUrl)
      throw new DeliveryError('Email is not set up on this console (SMTP_URL is not set)');
    transporter ??= nodemailer.createTransport(settings.smtpUrl, {
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // Never log the conversation: it carries the credentials' exchange.
      logger: false,
      debug: false,
    });
    return transporter;
  };

  async function post(url: string, body: string, extraHeaders: Record<string, string> = {}): Promise<void> {
    const problem = await outboundUrlProblem(url, settings.rules);
    if (problem) throw new DeliveryError(problem);
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    await new Promise<void>((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...extraHeaders,
          },
          lookup: guardedLookup(settings.rules),
          timeout: timeoutMs,
        },
        (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new DeliveryError(`The webhook answered ${status}`));
        },
      );
      request.on('timeout', () => request.destroy(new DeliveryError('The webhook did not answer in time')));
      request.on('error', reject);
      request.end(body);
    });
  }

  return {
    async email(to, message) {
      try {
        await mailer().sendMail({
          from: settings.from,
          to,
          subject: message.subject,
          text: messageText(message),
        });
      } catch (error) {
        throw new DeliveryError(reasonOf(error));
      }
    },
    async system(url, secret, body) {
      try {
        const id = (JSON.parse(body) as { id?: string }).id ?? '';
        await post(url, body, {
          'x-console-signature': systemSignature(secret, body, new Date()),
          'x-console-event-id': id,
        });
      } catch (error) {
        throw new DeliveryError(reasonOf(error));
      }
    },
    async chat(url, message) {
      try {
        await post(url, JSON.stringify({ text: messageText(message) }));
      } catch (error) {
        throw new DeliveryError(reasonOf(error));
      }
    },
  };
}
