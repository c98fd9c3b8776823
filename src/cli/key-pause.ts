import { STATUS_CODES } from 'node:http';
import type { Queue } from 'bullmq';
import { bullmq } from '../cjs-packages.js';
import { PING_TIMEOUT_MS } from '../defaults.js';
import { queueOptions } from '../queue/queue-options.js';
import { runsInQueue } from '../queue/queued-runs.js';
import { sellerLabel } from '../queue/seller-names.js';
import { type HintConnection, resumeCommand } from '../runs/connection-words.js';
import type { RunRecord, RunSpec } from '../runs/run-store.js';
import {
  EndpointNotFoundError,
  SellerApiClient,
  SellerApiError,
  UnauthorizedError,
} from '../seller-api/index.js';
import type { KeyHolder } from '../sellers/key-holder.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import { outOfReachText } from '../sync/seller-pause.js';
import { outOfReachCause } from '../sync/unreached.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './program.js';
import { say } from './run-outcome.js';
import type { Runtime } from './runtime.js';
import type { BeforeRun } from './signals.js';
import { UsageError } from './usage-error.js';

export type KeyPauseResult =
  | { kind: 'not-paused' }
  | { kind: 'resumed'; linked: boolean; checked: boolean }
  | { kind: 'still-rejected' }
  | { kind: 'refused'; reason: string }
  /**
   * The working key already serves another seller (anything of it recorded: key-holder.ts): not linked,
   * the pause stays; `queuedRuns` are the paused seller's runs still queued.
   */
  | { kind: 'key-taken'; by: KeyHolder; queuedRuns: string[] }
  /**
   * The key could not be checked: `reason` in ping's words; `apiDown` when the API is out of reach
   * or answers 5xx (nothing to fix here: run it again later), not when it answered otherwise.
   */
  | { kind: 'unreachable'; reason: string; apiDown: boolean };

/**
 * Lifts a seller's pause for a rejected key (401) once a key works again: the key is pinged first
 * (resuming with a key still rejected would only pause again), and a new key (a replaced one) is
 * linked to the seller, so it serves the same queue and id map, unless it already serves another
 * seller: a fixed typo's key belongs to the seller it was first used for, whose id map knows its
 * products. A key accepted leaves the seller's rejected keys; the others stay there, so that a worker
 * still holding one sends nothing with it. Without a key, resumes unchecked (no key leaves the list).
 */
export async function liftKeyPause(
  runtime: Runtime,
  seller: SellerInfo,
  apiKey: string | undefined,
  options: {
    allowInsecure: boolean;
    /** Why the key may not be sent to this (untrusted) base URL, or null; unset: the URL is trusted. */
    baseUrlRefusal?: (baseUrl: string) => string | null;
    /** `resume --seller`: this seller was named, so a new key is linked to it though it is not paused. */
    sellerNamed?: boolean;
    /**
     * How the ping is waited for; unset, to its answer. `run` gives it up at once on an interrupt
     * (its BeforeRun throws the line): nothing is written then, whatever the ping answers later.
     */
    awaitPing?: (ping: () => Promise<void>) => Promise<void>;
  },
): Promise<KeyPauseResult> {
  const queue = new (bullmq().Queue)(seller.queueName, queueOptions(runtime.redis, runtime.config.prefix));
  queue.on('error', () => undefined);
  try {
    const fingerprint = apiKey ? sellerRef(seller.baseUrl, apiKey) : null;
    const paused = await isKeyPaused(runtime, seller, fingerprint, queue);
    // A seller named with a key not linked to it is linked, paused or not: a dry run's 401 lists its
    // key and pauses no seller (own-queue-401.ts), and a key rotated in a worker's keys file leaves
    // the seller unpaused, its worker unable to know the new key is the seller's (its `status` names
    // `resume --seller`). Never a sweep of every seller: only with --seller.
    const replacing =
      !paused &&
      options.sellerNamed === true &&
      fingerprint !== null &&
      (await runtime.registry.resolveRef(fingerprint)) !== seller.ref;
    if (!paused && !replacing) return { kind: 'not-paused' };
    let linked = false;
    if (apiKey && fingerprint) {
      const refusal = options.baseUrlRefusal?.(seller.baseUrl) ?? null;
      if (refusal) return { kind: 'refused', reason: refusal };
      const client = new SellerApiClient({
        baseUrl: seller.baseUrl,
        apiKey,
        allowInsecure: options.allowInsecure,
        timeoutMs: PING_TIMEOUT_MS,
      });
      try {
        await (options.awaitPing ?? ((ping) => ping()))(() => client.ping());
      } catch (error) {
        if (error instanceof UnauthorizedError) return { kind: 'still-rejected' };
        if (error instanceof SellerApiError) return uncheckedKey(error, seller.baseUrl);
        throw error;
      }
      if ((await runtime.registry.resolveRef(fingerprint)) !== seller.ref) {
        const other = await runtime.registry.claimKey(fingerprint, seller.ref);
        if (other !== null) return { kind: 'key-taken', by: other, queuedRuns: await runsInQueue(queue) };
        linked = true;
      }
      await runtime.sellers.rejectedKeys.accepted(seller.ref, fingerprint);
    }
    await runtime.sellers.clearAuthRejected(seller.ref);
    await queue.resume();
    // Chunks a worker put off for want of a usable key go on now, not at the end of their minute
    // (delayed-chunks.ts).
    await queue.promoteJobs();
    return { kind: 'resumed', linked, checked: apiKey !== undefined };
  } finally {
    await queue.close();
  }
}

/** A ping that gave no verdict on the key, said as `ping` says it. */
function uncheckedKey(error: SellerApiError, baseUrl: string): KeyPauseResult {
  const cause = outOfReachCause([error], baseUrl);
  if (cause !== null)
    return { kind: 'unreachable', reason: outOfReachText(baseUrl, cause, false), apiDown: true };
  // A 404 of /ping itself: no API under the base URL, as `ping` says it (nothing to wait for).
  if (error instanceof EndpointNotFoundError)
    return { kind: 'unreachable', reason: outOfReachText(baseUrl, error.message, true), apiDown: false };
  if (error.status !== null && error.status >= 500) {
    const text = STATUS_CODES[error.status];
    return {
      kind: 'unreachable',
      reason: `${baseUrl} answers ${error.status}${text ? ` (${text})` : ''}`,
      apiDown: true,
    };
  }
  return { kind: 'unreachable', reason: error.message, apiDown: false };
}

/**
 * Whether `resume` has anything to lift for the seller: its rejected-key mark (401), its queue
 * paused, or (`fingerprint`, the key given) that key among its rejected keys: no worker sends with
 * it, the seller paused or not, until a ping finds it accepted again (rejected-keys.ts).
 */
export async function isKeyPaused(
  runtime: Runtime,
  seller: SellerInfo,
  fingerprint: string | null,
  queue: Pick<Queue, 'isPaused'>,
): Promise<boolean> {
  if ((await runtime.sellers.status(seller.ref, '00:00')).authRejected) return true;
  if (fingerprint !== null && (await runtime.sellers.rejectedKeys.has(seller.ref, fingerprint))) return true;
  return queue.isPaused();
}

/**
 * Refuses, in one line (exit 3), a key the API rejected (401) for the run's seller and no ping has
 * found accepted since (rejected-keys.ts): `approve` and `revert` send nothing with it.
 */
export async function refuseRejectedKey(
  runtime: Runtime,
  run: Pick<RunRecord, 'sellerRef' | 'sellerName' | 'baseUrl' | 'keysFile'>,
  apiKey: string,
  keyEnv: string,
  connection: HintConnection,
): Promise<void> {
  const line = await rejectedKeyText(runtime, run, apiKey, keyEnv, 'nothing was sent with it', connection);
  if (line) throw new UsageError(line, ExitCode.unauthorized);
}

/**
 * What to say of a key the API rejected (401) for the seller, null for any other: `outcome` (what
 * became of the command's work), and that `resume` with the key checks it (a ping) once it is fixed
 * or accepted again.
 */
export async function rejectedKeyText(
  runtime: Runtime,
  run: Pick<RunRecord, 'sellerRef' | 'sellerName' | 'baseUrl' | 'keysFile'>,
  apiKey: string,
  keyEnv: string,
  outcome: string,
  connection: HintConnection,
): Promise<string | null> {
  if (!(await runtime.sellers.rejectedKeys.has(run.sellerRef, sellerRef(run.baseUrl, apiKey)))) return null;
  const label = sellerLabel(run.sellerRef, run.sellerName);
  return (
    `the key in ${keyEnv} was rejected (401) for seller ${label}: ${outcome}; once it is fixed, ` +
    `${resumeCommand(run, keyEnv, connection)} checks it`
  );
}

/**
 * A seller paused by a rejected key (401) whose key works again (fixed for the next night's cron)
 * goes on without a person running `resume`; a key still rejected leaves it paused (exit 3). A key
 * the API rejected for a seller resumed since with another (rejected-keys.ts) is checked the same
 * way: accepted, it serves again; else nothing is queued with it, and the seller is left as it is.
 */
export async function resumeIfKeyWorksAgain(
  io: CliIo,
  runtime: Runtime,
  spec: RunSpec,
  seller: SellerInfo,
  before: BeforeRun,
): Promise<void> {
  const key = io.env[spec.keyEnv]?.trim() || undefined;
  const marked = (await runtime.sellers.status(spec.sellerRef, spec.dailyReset)).authRejected;
  const listed =
    key !== undefined &&
    (await runtime.sellers.rejectedKeys.has(spec.sellerRef, sellerRef(spec.baseUrl, key)));
  if (!marked && !listed) return;
  const label = sellerLabel(spec.sellerRef, spec.sellerName);
  // The ping (15 s and its retries when the API does not answer) is given up at once on an
  // interrupt; what follows it (a key linked, the pause lifted) is let finish, never half done.
  const checking = marked
    ? `while checking the key in ${spec.keyEnv} for seller ${label}, paused by a rejected key (401): ` +
      'the check was abandoned, the seller stays paused; no row was queued or sent'
    : `while checking the key in ${spec.keyEnv}, rejected (401) for seller ${label}: ` +
      'the check was abandoned, the key stays listed as rejected; no row was queued or sent';
  const result = await liftKeyPause(runtime, seller, key, {
    ...spec,
    awaitPing: (ping) => before.during(ping, { what: checking }),
  });
  if (result.kind === 'resumed') {
    // Not listed: the 401 that paused the seller was another key's (a mistyped one), which stays listed.
    const accepted = listed ? 'is accepted again' : 'is accepted';
    const other = listed ? '' : ' (it was paused for another key, still listed as rejected)';
    say(io, `catalog-sync: the key in ${spec.keyEnv} ${accepted}: seller ${label} resumed${other}\n`);
    return;
  }
  // The seller is marked: the run is queued and stops on the mark (exit 3), its rows kept for `resume`.
  if (marked) return;
  const rejected = `the key in ${spec.keyEnv} was rejected (401) for seller ${label}`;
  if (result.kind === 'unreachable')
    throw new UsageError(
      `${rejected}, and cannot be checked now (${result.reason}): nothing was queued or sent`,
      // No API under the base URL (or another answer): nothing to wait for, as `ping`'s exit 2.
      result.apiDown ? ExitCode.apiUnreachable : ExitCode.usage,
    );
  throw new UsageError(
    `${rejected}, and still is: nothing was queued or sent with it; put the seller's working key in ${spec.keyEnv}`,
    ExitCode.unauthorized,
  );
}
