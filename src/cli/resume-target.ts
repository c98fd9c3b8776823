import { bullmq } from '../cjs-packages.js';
import { queueOptions } from '../queue/queue-options.js';
import { runsInQueue } from '../queue/queued-runs.js';
import { sellerLabel } from '../queue/seller-names.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { isKeyPaused } from './key-pause.js';
import type { Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';

/** Sellers named in a refusal: enough to choose from, a line stays a line. */
const NAMED_AT_MOST = 5;

interface PausedSeller {
  seller: SellerInfo;
  /** The key already serves this seller (its own fingerprint, or linked to it). */
  serves: boolean;
  /** A queued run of this seller recorded the variable the key was given in. */
  readsKeyEnv: boolean;
}

/**
 * The paused sellers `resume` acts on when given a key and no `--seller`: a key is one seller's
 * account, and linking it to another paused seller sends that seller's queued catalog into this
 * account. What is known of a key decides, never the order sellers are listed in: the paused
 * sellers it already serves; else the one paused seller with a queued run made with the variable
 * it was given in (runs record their `--key-env`). Several of those, or none, is one line asking
 * for `--seller NAME` (exit 2), before anything is sent or linked.
 *
 * The API is not asked whose key it is: GET /ping's answer has no shape the Seller API spec shows
 * (section 4.1), and the sellers here are named by the operator, not by the marketplace.
 */
export async function pausedSellersOfKey(
  runtime: Runtime,
  registered: readonly SellerInfo[],
  apiKey: string,
  keyEnv: string,
): Promise<SellerInfo[]> {
  const paused: PausedSeller[] = [];
  for (const seller of registered) {
    const found = await pausedSeller(runtime, seller, apiKey, keyEnv);
    if (found) paused.push(found);
  }
  const served = paused.filter((one) => one.serves);
  if (served.length > 0 || paused.length === 0) return served.map((one) => one.seller);
  const reading = paused.filter((one) => one.readsKeyEnv);
  if (reading.length === 1) return reading.map((one) => one.seller);
  const outcome = 'nothing was linked or resumed: give the seller it is for with --seller NAME';
  if (reading.length > 1)
    throw new UsageError(
      terminalSafeLine(
        `the key in ${keyEnv} could be any of ${namedSellers(reading)}: each is paused with a queued run ` +
          `that reads ${keyEnv}; ${outcome}`,
      ),
    );
  throw new UsageError(
    terminalSafeLine(
      `the key in ${keyEnv} serves no paused seller, and no paused seller has a queued run that reads ` +
        `${keyEnv} (paused: ${namedSellers(paused)}): ${outcome}`,
    ),
  );
}

/** What the key is to a seller paused by a rejected key (401); null for a seller not paused. */
async function pausedSeller(
  runtime: Runtime,
  seller: SellerInfo,
  apiKey: string,
  keyEnv: string,
): Promise<PausedSeller | null> {
  const fingerprint = sellerRef(seller.baseUrl, apiKey);
  const queue = new (bullmq().Queue)(seller.queueName, queueOptions(runtime.redis, runtime.config.prefix));
  queue.on('error', () => undefined);
  try {
    if (!(await isKeyPaused(runtime, seller, fingerprint, queue))) return null;
    if ((await runtime.registry.resolveRef(fingerprint)) === seller.ref)
      return { seller, serves: true, readsKeyEnv: false };
    for (const runId of await runsInQueue(queue)) {
      const run = await runtime.runs.get(runId);
      if (run?.keyEnv === keyEnv) return { seller, serves: false, readsKeyEnv: true };
    }
    return { seller, serves: false, readsKeyEnv: false };
  } finally {
    await queue.close();
  }
}

/** `seller acme (3f2a…), seller 9c1d…`, in the registry's (ref) order, the first few only. */
function namedSellers(paused: readonly PausedSeller[]): string {
  const shown = paused
    .slice(0, NAMED_AT_MOST)
    .map(({ seller }) => `seller ${sellerLabel(seller.ref, seller.name)}`)
    .join(', ');
  const more = paused.length - NAMED_AT_MOST;
  return more > 0 ? `${shown} and ${more} more` : shown;
}
