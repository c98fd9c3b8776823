import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FieldValue, RowAction, RowOutcome, RowStatus } from '../interfaces.js';
import type { RedisKeys } from './keys.js';
import { lineOfMember, missingMember } from './missing-order.js';

/** What a run was asked to do. Stored in Redis: it never holds the API key, only the variable's name. */
export interface RunSpec {
  /** The source as shown to the user (a URL without its query string). */
  source: string;
  /** Identifies the source across imports (path, size and mtime; or URL), null for stdin. */
  sourceId: string | null;
  sellerRef: string;
  baseUrl: string;
  keyEnv: string;
  matchBy: string;
  dryRun: boolean;
  dailyReset: string;
  dailyBudget: number | null;
  allowInsecure: boolean;
  preset: string;
  /** `--fields`: the product fields the run may send (null: every mapped field). */
  fields: string[] | null;
  /** `--create-only-fields`: sent on POST only, never in a PUT (null: none). */
  createOnlyFields?: string[] | null;
  /** `--keep-remote-edits`: fields whose marketplace edits are kept, or `['all']` (null: none). */
  keepRemoteEdits?: string[] | null;
  /** `--incremental`: diff against what this tool last sent while its record is complete and fresh. */
  incremental?: boolean;
  /** `--only-published`: rows the source does not sell were left out (reported skipped). */
  onlyPublished?: boolean;
  /** `--include-external`: products sold on another site were sent. */
  includeExternal?: boolean;
  /** `--price-includes-tax` (or `--tax-rate`): gross prices were sent. */
  priceIncludesTax?: boolean;
  /** `--tax-rate`, in percent (null: none given). */
  taxRate?: string | null;
  /** The fields this run's source gives (sent when they differ). */
  sentFields?: string[];
  /** Fields earlier runs sent that this source does not give: the summary names them. */
  absentFields?: string[];
  /** `--full-read-after`, in ms: the oldest full read an incremental run may rely on. */
  fullReadAfterMs?: number;
  /** `--max-invalid N|P%` (guard): more invalid rows than this holds the whole run. */
  maxInvalid?: string | null;
  /** `--max-updates N|P%` (guard): more updates than this (of the products listed) holds the whole run. */
  maxUpdates?: string | null;
  /** `--max-price-change P%` (guard): a row whose price moves more than this is held. */
  maxPriceChange?: string | null;
  /** `--only create|update`: the other rows are skipped. */
  only?: 'create' | 'update' | null;
  /** `--notify`: the webhook told of the run's end, hold and pauses (null: none). */
  notify?: string | null;
  /** `--missing field=value,…`: what a managed product gone from the source is given (null: none). */
  missing?: Record<string, FieldValue> | null;
  /** `--max-missing N|P%` (guard, with `--missing`): more deactivations than this hold the run. */
  maxMissing?: string | null;
  /** The source's rows as estimated before reading it (the plan said at the start; null: unknown). */
  rowEstimate?: number | null;
  /** `--first a,b`: a run over the day's quota sends updates of these fields first (issue 14). */
  first?: string[] | null;
}

/** `held`: ended with writes a guard held back, until `approve` sends them. `cancelled`: ended by `cancel`. */
export type RunState = 'queued' | 'running' | 'held' | 'done' | 'cancelled';

export interface RunRecord extends RunSpec {
  id: string;
  state: RunState;
  createdAt: number;
  finishedAt: number | null;
  /** True once the producer has read the whole source: `total` is final. */
  produced: boolean;
  /** The run was ended before its source was read to the end (interrupted, or the source broke). */
  aborted: boolean;
  total: number;
  settled: number;
  snapshotReady: boolean;
  requests: number;
  writes: number;
  /** Counts by `action:<action>`, `status:<status>`, `pair:<action>:<status>`, and `notes:rows` (rows with a note). */
  counts: Record<string, number>;
  /** A guard held the run: one line saying what tripped. */
  heldReason?: string;
  /** When `approve` sent what a guard held back. */
  approvedAt?: number;
  /** When `revert` put back what the run's updates replaced, and what it did, by outcome. */
  revertedAt?: number;
  revertCounts?: Record<string, number>;
  /** When `cancel` was asked for (ms): no chunk of the run is synced from then on. */
  cancelledAt?: number;
  /**
   * The run needed more than the day's remaining quota when it started: it plans every row first,
   * then sends its most valuable writes first (`--first`; issue 14). Never holds anything.
   */
  planFirst?: boolean;
}

/** Run data is kept a week: long enough to read the report of last night's run, then it goes. */
export const RUN_TTL_SECONDS = 7 * 24 * 3600;

// Settles each row once: HSETNX makes a retried chunk (after a 429, a crash) unable to count a row twice.
// The product a row touched is recorded in the same round trip (a remote product no row touched is `missing`),
// and so are the source values of a row that failed (`report --failed-only`).
const SETTLE_SCRIPT = `
local settledNow = 0
local fresh = {}
for i = 1, #ARGV, 6 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    settledNow = settledNow + 1
    fresh[#fresh + 1] = (i - 1) / 6
    redis.call('HINCRBY', KEYS[2], 'action:' .. ARGV[i + 2], 1)
    redis.call('HINCRBY', KEYS[2], 'status:' .. ARGV[i + 3], 1)
    redis.call('HINCRBY', KEYS[2], 'pair:' .. ARGV[i + 2] .. ':' .. ARGV[i + 3], 1)
    if #cjson.decode(ARGV[i + 1]) >= 6 then redis.call('HINCRBY', KEYS[2], 'notes:rows', 1) end
    if string.find(ARGV[i + 1], 'accepted but not applied', 1, true) then
      redis.call('HINCRBY', KEYS[2], 'notes:not-applied', 1)
    end
    if ARGV[i + 5] ~= '' then redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 5]) end
  end
  if ARGV[i + 4] ~= '' then redis.call('SADD', KEYS[3], ARGV[i + 4]) end
end
local settled = redis.call('HINCRBY', KEYS[2], 'settled', settledNow)
return {settledNow, settled, fresh}
`;

// Adds `missing` (or `deactivate`) lines and counts only those not there yet, in one step. A line
// of a product still to deactivate (KEYS[3]) is added only while it is: a retried job adds it once.
// Counts: `action:<action>` and, for `deactivate`, `pair:deactivate:<status>` (not `status:`, which
// counts source rows). Returns the lines added and the deactivations left.
const ADD_MISSING_SCRIPT = `
local added = 0
for i = 1, #ARGV, 4 do
  local due = ARGV[i + 3] == '' or redis.call('HDEL', KEYS[3], ARGV[i + 3]) == 1
  if due and redis.call('ZADD', KEYS[1], 0, ARGV[i]) == 1 then
    added = added + 1
    redis.call('HINCRBY', KEYS[2], 'action:' .. ARGV[i + 1], 1)
    if ARGV[i + 1] ~= 'missing' then redis.call('HINCRBY', KEYS[2], 'pair:' .. ARGV[i + 1] .. ':' .. ARGV[i + 2], 1) end
  end
end
return {added, redis.call('HLEN', KEYS[3])}
`;

export function newRunId(now = Date.now()): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

type StoredOutcome = [
  key: string,
  action: RowAction,
  productId: string | null,
  status: RowStatus,
  error: string,
  note?: string,
];

export function encodeOutcome(outcome: RowOutcome): string {
  const stored: StoredOutcome = [
    outcome.key,
    outcome.action,
    outcome.productId,
    outcome.status,
    outcome.error,
  ];
  if (outcome.note) stored.push(outcome.note);
  return JSON.stringify(stored);
}

export function decodeOutcome(row: number | null, json: string): RowOutcome {
  const [key, action, productId, status, error, note] = JSON.parse(json) as StoredOutcome;
  return { row, key, action, productId, status, error, ...(note ? { note } : {}) };
}

/** Counts as stored by markReverted; what is not a count is dropped (Redis is not trusted). */
function revertCountsOf(json: string): Record<string, number> {
  const counts: Record<string, number> = {};
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    for (const name of Object.keys(parsed).sort()) {
      const value = parsed[name];
      if (typeof value === 'number' && Number.isFinite(value)) counts[name] = value;
    }
  } catch {
    // A broken record shows no counts rather than failing `status`.
  }
  return counts;
}

/** The fields that `approve`, `revert`, `cancel` and the guards add to a run's hash, when present. */
function laterFields(hash: Record<string, string>): Partial<RunRecord> {
  const fields: Partial<RunRecord> = {};
  if (hash.heldReason) fields.heldReason = hash.heldReason;
  if (hash.approvedAt) fields.approvedAt = Number(hash.approvedAt);
  if (hash.revertedAt) fields.revertedAt = Number(hash.revertedAt);
  if (hash.cancelledAt) fields.cancelledAt = Number(hash.cancelledAt);
  if (hash.planFirst === '1') fields.planFirst = true;
  if (hash.revertCounts) fields.revertCounts = revertCountsOf(hash.revertCounts);
  return fields;
}

export class RunStore {
  /**
   * Told of the outcomes this process settled, each row once (a retried chunk's settled rows are
   * not), and of the `missing` lines it added: `worker --metrics-port` counts them.
   */
  onSettled: ((outcomes: readonly RowOutcome[]) => void) | null = null;

  constructor(
    readonly redis: Redis,
    readonly keys: RedisKeys,
  ) {}

  async create(spec: RunSpec, now = Date.now()): Promise<RunRecord> {
    const id = newRunId(now);
    const key = this.keys.run(id);
    await this.redis
      .multi()
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
      .zadd(this.keys.runs, now, id)
      .exec();
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
    return {
      ...(JSON.parse(hash.spec) as RunSpec),
      id,
      state: (hash.state as RunState) ?? 'queued',
      createdAt: Number(hash.createdAt),
      finishedAt: hash.finishedAt ? Number(hash.finishedAt) : null,
      produced: hash.produced === '1',
      aborted: hash.aborted === '1',
      total: Number(hash.total ?? 0),
      settled: Number(hash.settled ?? 0),
      snapshotReady: hash.snapshotReady === '1',
      requests: Number(hash.requests ?? 0),
      writes: Number(hash.writes ?? 0),
      counts,
      ...laterFields(hash),
    };
  }

  /** Records a revert of the run that went to its end (revert-run.ts). */
  async markReverted(id: string, at: number, counts: Record<string, number>): Promise<void> {
    await this.redis.hset(this.keys.run(id), { revertedAt: at, revertCounts: JSON.stringify(counts) });
  }

  /** The newest run, for `status` without an id. */
  async latestId(): Promise<string | null> {
    const [id] = await this.redis.zrevrange(this.keys.runs, 0, 0);
    return id ?? null;
  }

  /** True for the one call that moved the run from queued to running (a worker's "run started"). */
  async markRunning(id: string): Promise<boolean> {
    await this.redis.hsetnx(this.keys.run(id), 'startedAt', Date.now());
    const moved = await this.redis.eval(
      "if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') return 1 end return 0",
      1,
      this.keys.run(id),
    );
    return moved === 1;
  }

  /**
   * Marks the run cancelled from now on (`cancel`): chunks not yet begun settle their rows
   * `skipped` (cancelled) instead of syncing them. False when the run is gone or already over.
   */
  async requestCancel(id: string, now = Date.now()): Promise<boolean> {
    const marked = await this.redis.eval(
      `local state = redis.call('HGET', KEYS[1], 'state')
       if not state or state == 'done' or state == 'cancelled' then return 0 end
       redis.call('HSETNX', KEYS[1], 'cancelledAt', ARGV[1])
       return 1`,
      1,
      this.keys.run(id),
      now,
    );
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

  /** Records request and write counts; called once per HTTP request, so kept to one round trip. */
  async countRequest(id: string, isWrite: boolean): Promise<void> {
    const key = this.keys.run(id);
    const multi = this.redis.multi().hincrby(key, 'requests', 1);
    if (isWrite) multi.hincrby(key, 'writes', 1);
    await multi.exec();
  }

  /**
   * Settles rows (once each); resolves to how many rows of the run are settled now. `sources`: the
   * rows' raw values, kept for each row that settles failed (`report --failed-only`).
   */
  async settle(
    id: string,
    outcomes: RowOutcome[],
    sources?: ReadonlyMap<number, readonly string[]>,
  ): Promise<{ settledNow: number; settled: number }> {
    if (outcomes.length === 0) {
      const settled = Number(await this.redis.hget(this.keys.run(id), 'settled'));
      return { settledNow: 0, settled };
    }
    const args: (string | number)[] = [];
    for (const outcome of outcomes) {
      if (outcome.row === null)
        throw new Error('settle() takes source rows; missing lines are added at the end');
      const values = outcome.status === 'failed' ? sources?.get(outcome.row) : undefined;
      args.push(
        outcome.row,
        encodeOutcome(outcome),
        outcome.action,
        outcome.status,
        outcome.productId ?? '',
        values ? JSON.stringify(values) : '',
      );
    }
    const [settledNow, settled, fresh] = (await this.redis.eval(
      SETTLE_SCRIPT,
      4,
      this.keys.outcomes(id),
      this.keys.run(id),
      this.keys.touched(id),
      this.keys.failedSources(id),
      ...args,
    )) as [number, number, number[]];
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
   * Marks the run done if every row is settled and the source fully read; true for exactly one caller.
   * `missing` lines are written by that caller before it calls `finish`.
   */
  async claimFinalisation(id: string): Promise<boolean> {
    const run = await this.get(id);
    if (!run || run.state === 'done' || run.state === 'held' || run.state === 'cancelled') return false;
    if (!run.produced || run.settled < run.total) return false;
    // Without the product list there are no `missing` lines to write, but the run must still end
    // (a cancelled run may end before its list was read).
    const listRead =
      run.snapshotReady ||
      run.cancelledAt !== undefined ||
      (await this.redis.hexists(this.keys.run(id), 'snapshotFailed')) === 1;
    if (!listRead) return false;
    return (await this.redis.hsetnx(this.keys.run(id), 'finalising', 1)) === 1;
  }

  /**
   * Ends the run: `cancelled` when `cancel` asked for it, `held` when a guard held rows back
   * (approve ends it then), else `done`.
   */
  async finish(
    id: string,
    now = Date.now(),
    how: { aborted?: boolean; held?: boolean; cancelled?: boolean } = {},
  ): Promise<void> {
    const state = how.cancelled ? 'cancelled' : how.held ? 'held' : 'done';
    const fields = { state, finishedAt: now, ...(how.aborted ? { aborted: 1 } : {}) };
    const multi = this.redis.multi().hset(this.keys.run(id), fields);
    for (const key of this.runDataKeys(id)) multi.expire(key, RUN_TTL_SECONDS);
    await multi.exec();
  }

  /**
   * Gives the run's data keys the run's lifetime while it is still going: a run that no worker ever
   * finishes (a seller paused for good) must not leave its outcomes in Redis forever.
   */
  async keepFor(id: string, seconds = RUN_TTL_SECONDS): Promise<void> {
    const multi = this.redis.multi();
    for (const key of this.runDataKeys(id)) multi.expire(key, seconds);
    await multi.exec();
  }

  /**
   * Adds `missing` (and `deactivate`) lines; a line added twice (finalisation tried again) is kept and
   * counted once. `settling`: the lines settle deactivations still due (keys.deactivations), each
   * once. Resolves to the deactivations still due.
   */
  async addMissing(id: string, outcomes: RowOutcome[], settling = false): Promise<number> {
    if (outcomes.length === 0) return 0;
    const args: string[] = [];
    for (const o of outcomes) {
      args.push(missingMember(o.productId ?? '', encodeOutcome(o)), o.action, o.status);
      args.push(settling ? (o.productId ?? '') : '');
    }
    const [added, left] = (await this.redis.eval(
      ADD_MISSING_SCRIPT,
      3,
      this.keys.missing(id),
      this.keys.run(id),
      this.keys.deactivations(id),
      ...args,
    )) as [number, number];
    // The metrics count lines by action and status; which of them were new matters only when retried.
    this.onSettled?.(added === outcomes.length ? outcomes : outcomes.slice(0, added));
    return left;
  }

  /** Every outcome in source order, then the `missing` lines; read in batches, never all at once. */
  async *outcomes(id: string, batchSize = 1000): AsyncGenerator<RowOutcome> {
    const run = await this.get(id);
    if (!run) return;
    for (let first = 1; first <= run.total; first += batchSize) {
      const rows = Array.from({ length: Math.min(batchSize, run.total - first + 1) }, (_, i) => first + i);
      const values = await this.redis.hmget(this.keys.outcomes(id), ...rows.map(String));
      for (const [i, value] of values.entries()) {
        const row = rows[i] as number;
        yield value
          ? decodeOutcome(row, value)
          : { row, key: '', action: 'invalid', productId: null, status: 'failed', error: 'not settled yet' };
      }
    }
    // All scores are 0, so ranks follow the members' sort keys: ascending product id.
    for (let start = 0; ; start += batchSize) {
      const members = await this.redis.zrange(this.keys.missing(id), start, start + batchSize - 1);
      for (const member of members) yield decodeOutcome(null, lineOfMember(member));
      if (members.length < batchSize) break;
    }
    // A run finalised before the lines were sorted (kept 7 days): its lines as they were stored.
    const unsorted = this.keys.missingUnsorted(id);
    for (let start = 0; ; start += batchSize) {
      const values = await this.redis.lrange(unsorted, start, start + batchSize - 1);
      for (const value of values) yield decodeOutcome(null, value);
      if (values.length < batchSize) break;
    }
  }

  private runDataKeys(id: string): string[] {
    return [
      this.keys.outcomes(id),
      this.keys.products(id),
      this.keys.keyToId(id),
      this.keys.idToKey(id),
      this.keys.touched(id),
      this.keys.replaced(id),
      this.keys.sourceKeys(id),
      this.keys.createdKeys(id),
      this.keys.missing(id),
      this.keys.missingUnsorted(id),
      this.keys.deactivations(id),
      this.keys.plan(id),
      this.keys.failedSources(id),
    ];
  }
}
