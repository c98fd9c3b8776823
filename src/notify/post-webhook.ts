import { request as httpRequest, type RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { WEBHOOK_DELIVERY } from '../defaults.js';
import { AddressRefusedError, connectChecked, type NetworkSeams } from '../net/checked-connect.js';
import { USER_AGENT } from '../seller-api/user-agent.js';

/** How one webhook delivery is tried; every wait goes through `sleep`, so tests wait for nothing. */
export interface WebhookDelivery {
  /** Tries in all (the first and the retries). */
  attempts: number;
  /** Wait before the second try; doubled for each later one. */
  backoffMs: number;
  /** One try is abandoned after this long (connecting and answering). */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  /** The resolver and connector (tests inject their own); the system's when absent. */
  network?: NetworkSeams;
  /** `--allow-private-source` on this process's command line: the address policy is lifted. */
  allowPrivateAddresses?: boolean;
  /**
   * A job file named the URL (the run's record says so): loopback and private addresses too are
   * refused, unless `allowPrivateAddresses`. Judged on the address connected to, so a name that
   * resolved to a public address when the run was queued and rebinds since gains nothing.
   */
  namedByJob?: boolean;
}

export const DEFAULT_DELIVERY: Omit<WebhookDelivery, 'sleep'> = WEBHOOK_DELIVERY;

export type DeliveryResult = { ok: true; attempts: number } | { ok: false; attempts: number; reason: string };

/**
 * POSTs `body` as JSON: retried on a network failure, a time-out, a 429 or a 5xx, with doubling
 * waits; a 4xx other than 429 is final (the hook will not take it later either). The address policy
 * of sources is applied at connect time (net/address-policy.ts). A redirect is not followed (the
 * answer counts as a failure): a hook that moved says so by its status, and a redirect could lead
 * the POST where the address rule would not. Never throws; the reason never holds the
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
    const answer = await postOnce(url, payload, delivery);
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

/**
 * One POST: the host resolved once, every address it resolves to judged by the address policy, and
 * the request sent on a socket to exactly the address judged (no second lookup, no rebinding).
 */
async function postOnce(url: string, payload: Buffer, delivery: WebhookDelivery): Promise<OneAnswer> {
  const target = new URL(url);
  const { timeoutMs } = delivery;
  const noAnswer = () => new Error(`no answer within ${timeoutMs} ms`);
  // A hook that never answers: one bound for the whole try, connecting included.
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const { socket } = await connectChecked(target, {
      ...delivery.network,
      allowPrivate: delivery.allowPrivateAddresses === true,
      namedByJob: delivery.namedByJob === true,
      signal: controller.signal,
      abortError: noAnswer,
    });
    return await send(target, payload, socket, controller.signal, noAnswer);
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      // As the job file's check before queueing says: the flag that lifts it, and whose it must be.
      const lift = delivery.namedByJob
        ? '; --allow-private-source (of the process that tells it) allows it'
        : '';
      return { status: null, reason: `refused: it leads to ${error.why}${lift}`, refused: true };
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (controller.signal.aborted) return { status: null, reason: noAnswer().message };
    return { status: null, reason: code ? `could not connect (${code})` : String((error as Error)?.message) };
  } finally {
    clearTimeout(deadline);
  }
}

function send(
  target: URL,
  payload: Buffer,
  socket: Duplex,
  signal: AbortSignal,
  noAnswer: () => Error,
): Promise<OneAnswer> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: 'POST',
      path: `${target.pathname}${target.search}`,
      headers: {
        Host: target.host,
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
        'User-Agent': USER_AGENT,
      },
      createConnection: () => socket as never,
    };
    const request = httpRequest(options, (response) => {
      // The body is of no use; read it away so the socket is freed.
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, reason: '' }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0, reason: '' }));
    });
    const abort = () => request.destroy(noAnswer());
    signal.addEventListener('abort', abort, { once: true });
    request.on('close', () => {
      signal.removeEventListener('abort', abort);
      socket.destroy();
    });
    request.on('error', reject);
    request.end(payload);
  });
}
