import type { Redis } from 'ioredis';
import { productsListed } from '../runs/ended-run.js';
import type { RedisKeys } from '../runs/keys.js';
import { missingSortKey } from '../runs/missing-order.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { backoffDelay, type RetryPolicy, type SellerApiClient } from '../seller-api/index.js';
import { afterTries, errorAction, pauseOf, reasonOf } from '../sync/error-policy.js';
import { IdMap } from '../sync/id-map.js';
import { matchSpaceOf } from '../sync/match-space.js';
import { decodeReplaced, type ReplacedValues } from '../sync/replaced-values.js';
import { SendingStoppedError } from '../sync/sending-stopped.js';
import { readCurrentProducts, readsByIdCheaper } from './current-products.js';
import { type ProductRevertPlan, planProductRevert, restoredMemory } from './plan.js';
import { stopCounts } from './stop-record.js';

export interface RevertDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  /** Its requests pass the process's limiter (`--concurrency`) and count against the seller's day. */
  client: SellerApiClient;
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  /**
   * Told of each product whose PUT went through, with what the run's PUT replaced: `--missing`'s
   * record of a deactivation put back ends there (missing/deactivation-undone.ts; passed in, as
   * missing/ sits beside revert/ in the layers).
   */
  putBackDone?: (product: RevertedProduct, replaced: ReplacedValues) => Promise<void>;
}

/** One product the run updated, and what became of it. */
export interface RevertedProduct extends ProductRevertPlan {
  /** `put`: its PUT was answered; `failed`: refused (the reason); `not-sent`: a dry run, or stopped before. */
  result: 'put' | 'failed' | 'not-sent' | 'nothing';
  error?: string;
}

export interface RevertResult {
  products: RevertedProduct[];
  /** Products the run created (action create, ok), by id: listed, never deleted. */
  created: Array<{ id: string; key: string }>;
  /**
   * A 429, a 401, the API out of reach or an interrupt (SendingStoppedError) that stopped the revert
   * half way (the products not yet put back are `not-sent`).
   */
  stoppedBy: unknown;
}

/**
 * Puts back what a run's updates replaced (README, Undoing a run: `revert`): reads the products the run
 * updated as they are now, and for each sends one PUT of the fields that still show what the run
 * sent. Idempotent: a field back to its old value is left alone, so a second revert sends nothing.
 */
export async function revertRun(deps: RevertDeps, run: RunRecord, dryRun: boolean): Promise<RevertResult> {
  const replaced = await readReplaced(deps, run.id);
  const created = await createdProducts(deps.runs, run.id);
  for (const { id } of created) replaced.delete(id);
  const ids = [...replaced.keys()].sort(byProductId);
  const productsAtRun = await productsListed(deps.redis, deps.keys, run.id);
  const byId = readsByIdCheaper(ids.length, productsAtRun);
  const current = await readCurrentProducts(deps.client, ids, byId);
  const products: RevertedProduct[] = ids.map((id) => {
    const plan = planProductRevert(id, replaced.get(id) as ReplacedValues, current.get(id) ?? null);
    return { ...plan, result: Object.keys(plan.put).length > 0 ? 'not-sent' : 'nothing' };
  });
  if (dryRun) return { products, created, stoppedBy: null };
  const space = await matchSpaceOf(deps.redis, deps.keys, run.sellerRef, run.matchBy, run.id);
  const idMap = new IdMap(deps.redis, deps.keys, run.sellerRef, space);
  const putBackDone = deps.putBackDone;
  const stop: { error: unknown } = { error: null };
  await Promise.all(
    products.map(async (product) => {
      if (product.result === 'not-sent') await putBack(deps, run.baseUrl, product, stop);
      // Its `--missing` values put back: no longer a deactivated product that a later run reactivates.
      if (product.result === 'put') await putBackDone?.(product, replaced.get(product.id) as ReplacedValues);
      if (product.result === 'put' || product.result === 'nothing') {
        const back = [...Object.keys(product.put), ...product.alreadyBack];
        if (product.result === 'nothing' && back.length === 0) return;
        const known = (await idMap.getMany([product.key])).get(product.key);
        const memory = restoredMemory(known, replaced.get(product.id) as ReplacedValues, back);
        if (memory) await idMap.remember(product.key, memory);
      }
    }),
  );
  if (stop.error === null) await deps.runs.markReverted(run.id, deps.now(), revertCounts(products, created));
  else {
    // Stopped half way (interrupted, a 429, a 401, the API out of reach): what it put back is
    // listed too (`status`), with the products left and why (stop-record.ts).
    const why = stopCounts(stop.error);
    const left = products.filter((p) => p.result === 'not-sent').length;
    if (why)
      await deps.runs.markReverted(run.id, deps.now(), { ...revertCounts(products, created), left, ...why });
  }
  return { products, created, stoppedBy: stop.error };
}

/**
 * One PUT of the fields to put back; a 429, a 401, or tries that never reached the API (out of
 * reach, as `run` says it) stop it and every PUT not sent yet.
 */
async function putBack(
  deps: RevertDeps,
  baseUrl: string,
  product: RevertedProduct,
  stop: { error: unknown },
): Promise<void> {
  const tries: unknown[] = [];
  for (let attempt = 1; stop.error === null; attempt++) {
    try {
      await deps.client.updateProduct(product.id, product.put);
      product.result = 'put';
      return;
    } catch (error) {
      // Interrupted (its command's Ctrl-C): not sent, left for the next revert.
      if (pauseOf(error) || error instanceof SendingStoppedError) {
        stop.error ??= error;
        return;
      }
      const action = errorAction(error, 'update');
      if (action === 'stop') throw error;
      tries.push(error);
      if (action === 'retry' && attempt <= deps.retry.retries) {
        await deps.sleep(backoffDelay(attempt, deps.retry, deps.random));
        continue;
      }
      // No try reached the API: it is out of reach, not this product's failure; the rest wait too.
      const outOfReach = action === 'retry' ? pauseOf(afterTries(error, baseUrl, deps.now(), tries)) : null;
      if (outOfReach) {
        stop.error ??= outOfReach;
        return;
      }
      product.result = 'failed';
      // A 404 on PUT: deleted since the read.
      product.error = action === 'recreate' ? 'gone from the marketplace' : reasonOf(error);
      return;
    }
  }
}

/** Counts of a revert, as the run record keeps them (`status` shows them). */
export function revertCounts(
  products: readonly RevertedProduct[],
  created: readonly unknown[],
): Record<string, number> {
  const count = (test: (p: RevertedProduct) => boolean) => products.filter(test).length;
  return {
    reverted: count((p) => p.result === 'put'),
    fieldsReverted: products.reduce((n, p) => n + (p.result === 'put' ? Object.keys(p.put).length : 0), 0),
    alreadyBack: count((p) => p.result === 'nothing' && !p.gone && p.alreadyBack.length > 0),
    fieldsKept: products.reduce((n, p) => n + p.kept.length, 0),
    gone: count((p) => p.gone),
    failed: count((p) => p.result === 'failed'),
    created: created.length,
  };
}

/** The run's records of what its PUTs replaced, by product id (HSCAN: a big run is not read in one reply). */
async function readReplaced(deps: RevertDeps, runId: string): Promise<Map<string, ReplacedValues>> {
  const found = new Map<string, ReplacedValues>();
  let cursor = '0';
  do {
    const [next, flat] = await deps.redis.hscan(deps.keys.replaced(runId), cursor, 'COUNT', 1000);
    cursor = next;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const record = decodeReplaced(flat[i + 1] as string);
      if (record) found.set(flat[i] as string, record);
    }
  } while (cursor !== '0');
  return found;
}

async function createdProducts(runs: RunStore, runId: string): Promise<Array<{ id: string; key: string }>> {
  const created: Array<{ id: string; key: string }> = [];
  for await (const outcome of runs.outcomes(runId)) {
    if (outcome.action === 'create' && outcome.status === 'ok' && outcome.productId)
      created.push({ id: outcome.productId, key: outcome.key });
  }
  return created.sort((a, b) => byProductId(a.id, b.id));
}

/** Ascending product id, as numbers where ids are integers (the report's order). */
function byProductId(a: string, b: string): number {
  const [x, y] = [missingSortKey(a), missingSortKey(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
