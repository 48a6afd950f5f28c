import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkedAddresses, type AddressPolicy } from './address-guard.js';

/**
 * Standard Webhooks (spec 1.0.0): the secret is `whsec_` and the base64 of random bytes (the signing key is those
 * bytes); each delivery carries `webhook-id` (the event's id, the same on every attempt, so a receiver can drop a
 * repeat), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body`, over the body exactly as sent).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface WebhookAttempt {
  ok: boolean;
  /** The receiver's HTTP status, if it answered. */
  status: number | null;
  /** Why the attempt failed (no answer, a non-2xx status, a refused address, a redirect). */
  error: string | null;
}

export interface WebhookMessage {
  url: string;
  id: string;
  body: string;
  secret: string;
}

const MAX_ERROR = 300;

/**
 * One delivery attempt: a POST whose connection can reach only addresses that pass the policy (the look-up the
 * socket uses is the checked one, so DNS cannot answer differently between the check and the connection). A
 * redirect is not followed: it counts as a failure, like any status outside 2xx.
 */
export async function postWebhook(
  message: WebhookMessage,
  policy: AddressPolicy,
  options: { timeoutMs: number; now?: () => number },
): Promise<WebhookAttempt> {
  let url: URL;
  try {
    url = new URL(message.url);
  } catch {
    return { ok: false, status: null, error: 'not a valid URL' };
  }
  const host = url.hostname;
  // An address in the URL itself never goes through a look-up: check it here.
  if (isIP(host.replace(/^\[|\]$/g, ''))) {
    try {
      await checkedAddresses(host, policy);
    } catch (err) {
      return { ok: false, status: null, error: (err as Error).message.slice(0, MAX_ERROR) };
    }
  }
  const lookup: LookupFunction = (hostname, opts, callback) => {
    checkedAddresses(hostname, policy).then(
      (addresses) => {
        if (opts.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'EREFUSEDADDRESS' }), '', 0),
    );
  };
  const timestamp = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<WebhookAttempt>((resolve) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        timeout: options.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'signal-service-alerts/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(message.secret, message.id, timestamp, message.body),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.resume(); // the answer's body is not read, only drained
        if (status >= 200 && status < 300) resolve({ ok: true, status, error: null });
        else if (status >= 300 && status < 400)
          resolve({ ok: false, status, error: `redirect (${status}) not followed` });
        else resolve({ ok: false, status, error: `the receiver answered ${status}` });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (err) => resolve({ ok: false, status: null, error: err.message.slice(0, MAX_ERROR) }));
    request.end(message.body);
  });
}
