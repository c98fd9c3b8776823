import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RowOutcome } from '../interfaces.js';
import { defineScripts, queueScript, runScript } from '../redis/scripts.js';
import { withApprovedQueued } from './approved-queued.js';
import { keepOnlyWhatEndedRunsRead } from './ended-run.js';
import { claimFinalisationLease, type FinaliseClaim, type LeaseOptions } from './finalise-claim.js';
import type { RedisKeys } from './keys.js';
import { missingMember } from './missing-order.js';
import { newestWithRecord } from './newest-run.js';
import { encodeOutcome } from './outcome-codec.js';
import { reportLines } from './outcome-rows.js';
import { PACKED_BLOCK_ROWS } from './packed-outcomes.js';
import { execWithCounts, RequestCounts } from './request-counts.js';
import { recordRevert } from './revert-history.js';
import { runCount } from './run-counts.js';
import { runDataKeys } from './run-data-keys.js';
import {
  LIST_NEVER_READ,
  laterFields,
  newRunId,
  type RunRecord,
  type RunSpec,
  type RunState,
} from './run-record.js';
import { ADD_MISSING, FINISH, MARK_RUNNING, REQUEST_CANCEL, unwrittenCounter } from './run-scripts.js';
import type { RowWrite } from './settle-batch.js';
import { fenceArgs, type SettleFence } from './settle-fence.js';
import { runSettle } from './settle-step.js';
import type { RowSource } from './source-rows.js';
import { listAmongSourceRuns } from './source-runs.js';

export { decodeOutcome, encodeOutcome } from './outcome-codec.js';
export { newRunId, type RunRecord, type RunSpec, type RunState } from './run-record.js';

export class RunStore {
  /**
   * Told of the outcomes this process settled, each row once (a retried chunk's settled rows are
   * not), and of the `missing` lines it added: `worker --metrics-port` counts them.
   */
  onSettled: ((outcomes: readonly RowOutcome[]) => void) | null = null;
  /** Requests sent and not yet added to their run's record (request-counts.ts). */
  private readonly requestCounts = new RequestCounts();

  constructor(
    readonly redis: Redis,
    readonly keys: RedisKeys,
  ) {}

  async create(spec: RunSpec, now = Date.now()): Promise<RunRecord> {
    const id = newRunId(now, this.keys.runIdSuffix(spec.sellerRef));
    const key = this.keys.run(id);
    const multi = this.redis.multi();
    // Listed with its record, in its seller's slot: found by the next run of its source (source-runs.ts).
    listAmongSourceRuns(multi, this.keys, spec, id, now);
    await multi
      .hset(key, {
        spec: JSON.stringify(spec),
        state: 'queued',
        createdAt: now,
        produced: 0,
        total: 0,
        settled: 0,
        snapshotReady: 0,
        requests: 0,
        writes: 0,
      })
      .expire(key, RUN_TTL_SECONDS)
      // The seller's own list of runs: in the run's slot on a cluster (both carry the seller's tag).
      .zadd(this.keys.sellerRuns(spec.sellerRef), now, id)
      .zremrangebyscore(this.keys.sellerRuns(spec.sellerRef), '-inf', `(${now - RUN_TTL_SECONDS * 1000}`)
      .expire(this.keys.sellerRuns(spec.sellerRef), RUN_TTL_SECONDS)
      .exec();
    // Apart from the MULTI: on a cluster the runs index (global) and the run (its seller's slot) live
    // in different slots. Listed after it exists, so `status` never lists a run without a record
    // (one that expired is skipped already); stopped between the two, the run was not queued yet.
    await this.redis.zadd(this.keys.runs, now, id);
    const record = await this.get(id);
    if (!record) throw new Error(`run ${id} vanished right after it was created`);
    return record;
  }

  async get(id: string): Promise<RunRecord | null> {
    const hash = await this.redis.hgetall(this.keys.run(id));
    if (!hash.spec) return null;
    // By name: a hash's fields come back in whatever order Redis keeps them (`status --json` prints these).
    const counts: Record<string, number> = {};
    for (const field of Object.keys(hash).sort()) {
      if (/^(action|status|pair|notes):/.test(field)) counts[field] = Number(hash[field]);
    }
    const record: RunRecord = {
      ...(JSON.parse(hash.spec) as RunSpec),
      id,
      state: (hash.state as RunState) ?? 'queued',
      createdAt: Number(hash.createdAt),
      finishedAt: hash.finishedAt ? Number(hash.finishedAt) : null,
      produced: hash.produced === '1',
      aborted: hash.aborted === '1',
      total: runCount(id, 'total', hash.total),
      settled: runCount(id, 'settled', hash.settled),
      snapshotReady: hash.snapshotReady === '1',
      requests: Number(hash.requests ?? 0),
      writes: Number(hash.writes ?? 0),
      counts,
      ...laterFields(hash),
    };
    return withApprovedQueued(record, hash);
  }

  /** Records a revert of the run that went to its end (revert-run.ts). */
  async markReverted(id: string, at: number, counts: Record<string, number>): Promise<void> {
    await recordRevert(this.redis, this.keys.run(id), at, counts);
  }

  /** The newest run Redis still holds, for `status` without an id. */
  async latestId(): Promise<string | null> {
    return (await newestWithRecord(this.redis, this.keys.runs, (id) => this.exists(id)))?.id ?? null;
  }

  /** True for the one call that moved the run from queued to running (a worker's "run started"). */
  async markRunning(id: string): Promise<boolean> {
    await this.redis.hsetnx(this.keys.run(id), 'startedAt', Date.now());
    const moved = await runScript(this.redis, MARK_RUNNING, this.keys.run(id));
    return moved === 1;
  }

  /**
   * Marks the run cancelled from now on (`cancel`): chunks not yet begun settle their rows
   * `skipped` (cancelled) instead of syncing them. False when the run is gone or already over.
   * `supersededBy`: the later run of its source that replaces it, kept unless a cancel came first.
   */
  async requestCancel(id: string, now = Date.now(), supersededBy = ''): Promise<boolean> {
    const marked = await runScript(this.redis, REQUEST_CANCEL, this.keys.run(id), now, supersededBy);
    return marked === 1;
  }

  /** The source is read to the end: `total` is final, and nobody produces the run any more (one step). */
  async markProduced(id: string, total: number): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.run(id), { produced: 1, total })
      .del(this.keys.producing(id))
      .exec();
  }

  /**
   * The source broke half way, or its reader died (queue/ending-early.ts): `total` is final, and the
   * run ends, early, once its rows are settled. `missingNotApplied`: why its `--missing` deactivates
   * nothing; `unsentReason`: what its rows never sent are reported with.
   */
  async markEndingEarly(
    id: string,
    reason: string,
    also: { missingNotApplied?: string; unsentReason?: string; interrupted?: boolean } = {},
  ): Promise<void> {
    const { missingNotApplied, unsentReason, interrupted } = also;
    await this.redis.hset(this.keys.run(id), {
      endingEarly: reason,
      ...(missingNotApplied ? { missingNotApplied } : {}),
      ...(unsentReason ? { unsentReason } : {}),
      ...(interrupted ? { interrupted: 1 } : {}),
    });
  }

  /** False once the run's record is gone from Redis (expired, or lost with Redis' data). */
  async exists(id: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.run(id), 'spec')) === 1;
  }

  async setTotalSoFar(id: string, total: number): Promise<void> {
    await this.redis.hset(this.keys.run(id), 'total', total);
  }

  async markSnapshotReady(id: string): Promise<void> {
    await this.redis.hset(this.keys.run(id), 'snapshotReady', 1);
  }

  /** Counts a request sent for the run: added to its record with the run's next settle (request-counts.ts). */
  async countRequest(id: string, isWrite: boolean): Promise<void> {
    this.requestCounts.add(id, isWrite);
  }

  /** Adds the counts of requests not yet in their run's record (a chunk ends, the process closes). */
  async flushRequestCounts(id?: string): Promise<void> {
    for (const runId of id === undefined ? this.requestCounts.runs() : [id]) {
      const multi = this.redis.pipeline();
      const counts = this.requestCounts.queue(multi, this.keys.run(runId), runId);
      if (counts.commands > 0) await execWithCounts(multi, counts);
    }
  }

  /**
   * Settles rows (once each); resolves to how many rows of the run are settled now. `sources`: the
   * rows' raw values, kept for each row that settles failed (`report --failed-only`).
   */
  async settle(
    id: string,
    outcomes: RowOutcome[],
    sources?: ReadonlyMap<number, RowSource>,
    /** What the rows' writes record (row-writes.ts): in the same step, before the outcomes. */
    records: readonly RowWrite[] = [],
    /** A chunk attempt's lock: its rows settle only while no other attempt holds the chunk. */
    fence?: SettleFence,
  ): Promise<{ settledNow: number; settled: number }> {
    if (outcomes.length === 0 && records.length === 0) {
      const settled = Number(await this.redis.hget(this.keys.run(id), 'settled'));
      return { settledNow: 0, settled };
    }
    const counts = this.requestCounts.take(id);
    const { settledNow, settled, fresh } = await runSettle(this.redis, this.keys, id, counts, {
      outcomes,
      sources,
      records,
      fence,
    });
    this.onSettled?.(fresh.map((index) => outcomes[index] as RowOutcome));
    return { settledNow, settled };
  }

  /**
   * The source's header and CSV delimiter, as `report --failed-only` writes them back; set again
   * when the header grows (JSON sources). Read by failed-rows.ts.
   */
  async setSourceHeader(id: string, header: readonly string[], delimiter: string): Promise<void> {
    await this.redis.hset(this.keys.run(id), {
      sourceHeader: JSON.stringify(header),
      sourceDelimiter: delimiter,
    });
  }

  /** The rows of a chunk that are settled already (a chunk run again skips them). */
  async settledRows(id: string, rows: number[]): Promise<Set<number>> {
    if (rows.length === 0) return new Set();
    const values = await this.redis.hmget(this.keys.outcomes(id), ...rows.map(String));
    return new Set(rows.filter((_, i) => values[i] !== null));
  }

  /**
   * The claim to end the run once every row is settled and the source fully read, for one caller at
   * a time (finalise-claim.ts); null for the others. `missing` lines are written by that caller
   * before it calls `finish`.
   */
  async claimFinalisation(id: string, lease?: LeaseOptions): Promise<FinaliseClaim | null> {
    const run = await this.get(id);
    if (!run || run.state === 'done' || run.state === 'held' || run.state === 'cancelled') return null;
    if (run.endingEarly !== undefined) {
      // Its source broke: no guard decides its planned rows any more, they settle as it ends.
      const planned = Number((await this.redis.hget(this.keys.run(id), 'planned')) ?? 0);
      if (run.settled + planned < run.total) return null;
    } else if (!run.produced || run.settled < run.total) return null;
    // Without the product list there are no `missing` lines to write, but the run must still end
    // (a cancelled run may end before its list was read, one whose source broke before any chunk,
    // one whose every chunk Redis lost before one read it).
    const listRead =
      run.endingEarly !== undefined ||
      run.snapshotReady ||
      run.cancelledAt !== undefined ||
      (await this.redis.hmget(this.keys.run(id), 'snapshotFailed', LIST_NEVER_READ)).some((v) => v !== null);
    if (!listRead) return null;
    return claimFinalisationLease(this.redis, this.keys.run(id), lease);
  }

  /**
   * Ends the run: `cancelled` when `cancel` asked for it, `held` when a guard held rows back
   * (approve ends it then), else `done`. A run that ended drops what only a running run reads and
   * packs its unchanged outcomes (ended-run.ts). Once (FINISH): true for the one call that ended it;
   * a run ended (or held) already is left as it is, and the caller says nothing of its end.
   */
  async finish(
    id: string,
    now = Date.now(),
    /**
     * `endedEarly`: with `aborted`, why (one line: the run's webhook and record say it).
     * `missingNotApplied`: why the run's `--missing` deactivated nothing (missing/verdict.ts), said
     * by its summary and `status`; given by a caller that ends a run before its finalisation would.
     */
    how: {
      aborted?: boolean;
      endedEarly?: string;
      held?: boolean;
      cancelled?: boolean;
      missingNotApplied?: string;
    } = {},
  ): Promise<boolean> {
    const state = how.cancelled ? 'cancelled' : how.held ? 'held' : 'done';
    const early = how.aborted
      ? { aborted: 1, ...(how.endedEarly ? { endedEarly: how.endedEarly } : {}) }
      : {};
    const notApplied = how.missingNotApplied ? { missingNotApplied: how.missingNotApplied } : {};
    // A held run's `finishedAt` becomes its approval's end later: the hold's own instant is kept apart.
    const fields = { state, finishedAt: now, ...(how.held ? { heldAt: now } : {}), ...early, ...notApplied };
    defineScripts(this.redis, FINISH);
    const multi = this.redis.multi();
    // The requests this process counted for the run are in its record when it ends (spent, they
    // count even when another caller ended it).
    const counts = this.requestCounts.queue(multi, this.keys.run(id), id);
    for (const key of runDataKeys(this.keys, id)) multi.expire(key, RUN_TTL_SECONDS);
    queueScript(multi, FINISH, this.keys.run(id), ...Object.entries(fields).flat());
    const ended = (await execWithCounts(multi, counts)) === 1;
    const run = state === 'held' || !ended ? null : await this.get(id);
    if (run) await keepOnlyWhatEndedRunsRead(this.redis, this.keys, run);
    return ended;
  }

  /**
   * Gives the run's data keys the run's lifetime while it is still going: a run that no worker ever
   * finishes (a seller paused for good) must not leave its outcomes in Redis forever.
   */
  async keepFor(id: string, seconds = RUN_TTL_SECONDS): Promise<void> {
    const multi = this.redis.multi();
    for (const key of runDataKeys(this.keys, id)) multi.expire(key, seconds);
    await multi.exec();
  }

  /**
   * Adds `missing` (and `deactivate`) lines; a line added twice (finalisation tried again) is kept and
   * counted once. `settling`: the lines settle deactivations still due (keys.deactivations), each
   * once. `fence`: a `deactivate` chunk's attempt, whose lines settle only while no other attempt
   * holds the chunk. Resolves to the deactivations still due.
   */
  async addMissing(
    id: string,
    outcomes: RowOutcome[],
    settling = false,
    fence?: SettleFence,
  ): Promise<number> {
    if (outcomes.length === 0) return 0;
    const [lockKey, tokens] = fenceArgs(fence, this.keys.run(id));
    const args: string[] = [tokens];
    for (const o of outcomes) {
      args.push(missingMember(o.productId ?? '', encodeOutcome(o)), o.action, o.status);
      args.push(settling ? (o.productId ?? '') : '', unwrittenCounter(o));
    }
    const [added, left] = (await runScript(
      this.redis,
      ADD_MISSING,
      this.keys.missing(id),
      this.keys.run(id),
      this.keys.deactivations(id),
      lockKey,
      ...args,
    )) as [number, number];
    // The metrics count lines by action and status; which of them were new matters only when retried.
    this.onSettled?.(added === outcomes.length ? outcomes : outcomes.slice(0, added));
    return left;
  }

  /**
   * Every settled outcome in source order, then the `missing` lines; read in batches, never all at
   * once. A row not settled yet is left out, `onUnsettled` told of it (reportLines).
   */
  async *outcomes(
    id: string,
    onUnsettled?: (row: number) => void,
    batchSize = PACKED_BLOCK_ROWS,
  ): AsyncGenerator<RowOutcome> {
    const run = await this.get(id);
    if (run) yield* reportLines(this.redis, this.keys, run, batchSize, onUnsettled);
  }
}
