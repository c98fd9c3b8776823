import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { USER_AGENT } from '../seller-api/user-agent.js';
import { classifyAddress, refusal } from '../sources/address-policy.js';

/** How one webhook delivery is tried; every wait goes through `sleep`, so tests wait for nothing. */
export interface WebhookDelivery {
  /** Tries in all (the first and the retries). */
  attempts: number;
  /** Wait before the second try; doubled for each later one. */
  backoffMs: number;
  /** One try is abandoned after this long (connecting and answering). */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_DELIVERY: Omit<WebhookDelivery, 'sleep'> = {
  attempts: 3,
  backoffMs: 500,
  timeoutMs: 5_000,
};

export type DeliveryResult = { ok: true; attempts: number } | { ok: false; attempts: number; reason: string };

/**
 * POSTs `body` as JSON: retried on a network failure, a time-out, a 429 or a 5xx, with doubling
 * waits; a 4xx other than 429 is final (the hook will not take it later either). A redirect is not
 * followed (the answer counts as a failure): a hook that moved says so by its status, and a redirect
 * could lead the POST where the address rule would not. Never throws; the reason never holds the
 * URL's path or query (a Slack token lives there).
 */
export async function postWebhook(
  url: string,
  body: unknown,
  delivery: WebhookDelivery,
): Promise<DeliveryResult> {
  const payload = Buffer.from(JSON.stringify(body));
  let reason = 'not tried';
  for (let attempt = 1; attempt <= delivery.attempts; attempt++) {
    if (attempt > 1) await delivery.sleep(delivery.backoffMs * 2 ** (attempt - 2));
    const answer = await postOnce(url, payload, delivery.timeoutMs);
    if (answer.status !== null && answer.status >= 200 && answer.status < 300)
      return { ok: true, attempts: attempt };
    reason = answer.status === null ? answer.reason : `answered ${answer.status}`;
    const final = answer.status !== null && answer.status < 500 && answer.status !== 429;
    if (final || answer.refused) return { ok: false, attempts: attempt, reason };
  }
  return { ok: false, attempts: delivery.attempts, reason };
}

interface OneAnswer {
  status: number | null;
  reason: string;
  /** The address rule refused the host: trying again cannot help. */
  refused?: boolean;
}

function postOnce(url: string, payload: Buffer, timeoutMs: number): Promise<OneAnswer> {
  return new Promise((resolve) => {
    const target = new URL(url);
    // An address written in the URL is connected to without a lookup: judged here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const literalRefusal = isIP(literal) ? refusal(classifyAddress(literal), undefined, false) : undefined;
    if (literalRefusal) {
      resolve({ status: null, reason: `refused: it leads to ${literalRefusal}`, refused: true });
      return;
    }
    let refusedBy: string | undefined;
    const options: RequestOptions = {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
        'User-Agent': USER_AGENT,
      },
      lookup: guardedLookup((why) => {
        refusedBy = why;
      }),
      timeout: timeoutMs,
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, options, (response) => {
      // The body is of no use; read it away so the socket is freed.
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reason: '' }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0, reason: '' }));
    });
    // A hook that never answers: one bound for the whole try, whatever the socket does.
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('close', () => clearTimeout(deadline));
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      if (refusedBy) resolve({ status: null, reason: `refused: it leads to ${refusedBy}`, refused: true });
      else
        resolve({ status: null, reason: error.code ? `could not connect (${error.code})` : error.message });
    });
    request.end(payload);
  });
}

/**
 * dns.lookup, keeping only addresses the source address rule allows: the socket connects to the
 * address checked here, so a name that resolves elsewhere a moment later gains nothing.
 */
function guardedLookup(onRefused: (why: string) => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = (found as LookupAddress[]).filter((entry) => {
        const refused = refusal(classifyAddress(entry.address), undefined, false);
        if (refused) onRefused(refused);
        return !refused;
      });
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error('address refused'), { code: 'EREFUSED' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}
