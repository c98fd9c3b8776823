import { bullmq } from '../cjs-packages.js';
import { PING_TIMEOUT_MS } from '../defaults.js';
import { queueOptions } from '../queue/queue-options.js';
import { runsInQueue } from '../queue/queued-runs.js';
import { SellerApiClient, SellerApiError, UnauthorizedError } from '../seller-api/index.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { KeyHolder, SellerInfo } from '../sellers/seller-registry.js';
import type { Runtime } from './runtime.js';

export type KeyPauseResult =
  | { kind: 'not-paused' }
  | { kind: 'resumed'; linked: boolean; checked: boolean }
  | { kind: 'still-rejected' }
  | { kind: 'refused'; reason: string }
  /**
   * The working key already serves another seller (named, or with products recorded): not linked,
   * the pause stays; `queuedRuns` are the paused seller's runs still queued.
   */
  | { kind: 'key-taken'; by: KeyHolder; queuedRuns: string[] }
  | { kind: 'unreachable'; reason: string };

/**
 * Lifts a seller's pause for a rejected key (401) once a key works again: the key is pinged first
 * (resuming with a key still rejected would only pause again), and a new key (a replaced one) is
 * linked to the seller, so it serves the same queue and id map, unless it already serves another
 * seller: a fixed typo's key belongs to the seller it was first used for, whose id map knows its
 * products. Without a key, resumes unchecked.
 */
export async function liftKeyPause(
  runtime: Runtime,
  seller: SellerInfo,
  apiKey: string | undefined,
  options: {
    allowInsecure: boolean;
    /** Why the key may not be sent to this (untrusted) base URL, or null; unset: the URL is trusted. */
    baseUrlRefusal?: (baseUrl: string) => string | null;
  },
): Promise<KeyPauseResult> {
  const queue = new (bullmq().Queue)(seller.queueName, queueOptions(runtime.redis, runtime.config.prefix));
  queue.on('error', () => undefined);
  try {
    const rejected = (await runtime.sellers.status(seller.ref, '00:00')).authRejected;
    if (!rejected && !(await queue.isPaused())) return { kind: 'not-paused' };
    let linked = false;
    if (apiKey) {
      const refusal = options.baseUrlRefusal?.(seller.baseUrl) ?? null;
      if (refusal) return { kind: 'refused', reason: refusal };
      const client = new SellerApiClient({
        baseUrl: seller.baseUrl,
        apiKey,
        allowInsecure: options.allowInsecure,
        timeoutMs: PING_TIMEOUT_MS,
      });
      try {
        await client.ping();
      } catch (error) {
        if (error instanceof UnauthorizedError) return { kind: 'still-rejected' };
        if (error instanceof SellerApiError) return { kind: 'unreachable', reason: error.message };
        throw error;
      }
      const fingerprint = sellerRef(seller.baseUrl, apiKey);
      if ((await runtime.registry.resolveRef(fingerprint)) !== seller.ref) {
        const other = await runtime.registry.claimKey(fingerprint, seller.ref);
        if (other !== null) return { kind: 'key-taken', by: other, queuedRuns: await runsInQueue(queue) };
        linked = true;
      }
    }
    await runtime.sellers.clearAuthRejected(seller.ref);
    await queue.resume();
    return { kind: 'resumed', linked, checked: apiKey !== undefined };
  } finally {
    await queue.close();
  }
}
