import type { Redis } from 'ioredis';
import { RECENT_RUNS_FOR_RESET } from '../defaults.js';
import { readerStopped } from '../queue/producing-mark.js';
import type { RedisKeys } from '../runs/keys.js';
import { writeReport } from '../runs/report.js';
import { RunCountRefused } from '../runs/run-counts.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import type { SellerRegistry } from '../sellers/seller-registry.js';
import type { SellerState, SellerStatus } from '../sellers/seller-state.js';
import type { QueueCounter } from './queue-counts.js';
import { type RunView, runView, type SellerView, sellerView } from './views.js';

/** What the dashboard reads; the server knows nothing of Redis. */
export interface DashboardSource {
  sellers(): Promise<SellerView[]>;
  /** The newest runs first, at most `limit`. */
  runs(limit: number): Promise<RunView[]>;
  run(id: string): Promise<RunView | null>;
  /** True when the run exists (its report can be written). */
  hasRun(id: string): Promise<boolean>;
  /** Streams the run's report CSV (README, The report) into `out`, leaving it open. */
  writeReport(id: string, out: NodeJS.WritableStream): Promise<void>;
}

export interface DashboardDataDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
  registry: SellerRegistry;
  queues: QueueCounter;
  now?: () => number;
  /** How often a source's reader renews its mark (readerStopped: producing-mark.ts). */
  producingBeatMs?: number;
}

// The quota day of a seller depends on the `--daily-reset` of its runs; a seller with no run
// in sight counts from midnight UTC, the contract's default.
const DEFAULT_DAILY_RESET = '00:00';

/** Reads sellers and runs from Redis as plain objects (the JSON of the API). */
export class DashboardData implements DashboardSource {
  private readonly now: () => number;

  constructor(private readonly deps: DashboardDataDeps) {
    this.now = deps.now ?? Date.now;
  }

  async sellers(): Promise<SellerView[]> {
    const infos = await this.deps.registry.registered();
    const resets = new Map<string, string>();
    for (const run of await this.recentRuns(RECENT_RUNS_FOR_RESET)) {
      if (!resets.has(run.sellerRef)) resets.set(run.sellerRef, run.dailyReset);
    }
    const now = this.now();
    // In the registry's order: by seller ref.
    return Promise.all(
      infos.map(async (info) => {
        const [status, queue] = await Promise.all([
          this.deps.sellers.status(info.ref, resets.get(info.ref) ?? DEFAULT_DAILY_RESET),
          this.deps.queues.counts(info.queueName),
        ]);
        return sellerView(info, status, queue, now);
      }),
    );
  }

  async runs(limit: number): Promise<RunView[]> {
    const runs = await this.recentRuns(limit);
    const statuses = new Map<string, SellerStatus>();
    for (const run of runs) {
      if (run.state !== 'done' && !statuses.has(run.sellerRef))
        statuses.set(run.sellerRef, await this.deps.sellers.status(run.sellerRef, run.dailyReset));
    }
    const now = this.now();
    return Promise.all(
      runs.map(async (run) =>
        runView(run, statuses.get(run.sellerRef), now, await readerStopped(this.deps, run, now)),
      ),
    );
  }

  async run(id: string): Promise<RunView | null> {
    const run = await this.deps.runs.get(id);
    if (!run) return null;
    const status =
      run.state === 'done' ? undefined : await this.deps.sellers.status(run.sellerRef, run.dailyReset);
    const now = this.now();
    return runView(run, status, now, await readerStopped(this.deps, run, now));
  }

  async hasRun(id: string): Promise<boolean> {
    return (await this.deps.runs.get(id)) !== null;
  }

  async writeReport(id: string, out: NodeJS.WritableStream): Promise<void> {
    await writeReport(this.deps.runs, id, out);
  }

  /**
   * The newest runs that still exist. The runs index outlives runs (they expire after a week), so
   * ids whose record is gone are passed over rather than shown empty.
   */
  /** A run to list; one whose record Redis holds forged is left out (its own page says why). */
  private async listable(id: string): Promise<RunRecord | null> {
    try {
      return await this.deps.runs.get(id);
    } catch (error) {
      if (error instanceof RunCountRefused) return null;
      throw error;
    }
  }

  private async recentRuns(limit: number): Promise<RunRecord[]> {
    const found: RunRecord[] = [];
    for (let start = 0; found.length < limit; start += limit) {
      const ids = await this.deps.redis.zrevrange(this.deps.keys.runs, start, start + limit - 1);
      for (const id of ids) {
        const run = await this.listable(id);
        if (run && found.length < limit) found.push(run);
      }
      if (ids.length < limit) break;
    }
    return found;
  }
}
