import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { ProductFields, ProductUpsert } from '../interfaces.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import { parentRowsOf, parentValues, StoredSources, withParentValues } from '../runs/parent-sources.js';
import type { RowSource } from '../runs/source-rows.js';
import type { CompactValue } from '../sync/compact-value.js';

/** A write a guarded run planned for one row: sent once the guards pass, or held for `approve`. */
export interface PlannedWrite {
  upsert: ProductUpsert;
  action: 'create' | 'update';
  /** The product an update addresses. */
  productId: string | null;
  /** The fields the plan would send (the whole row for a create, the changed ones for an update). */
  fields: ProductFields;
  /**
   * An update's fields as the product showed them when it was planned (compact values; a field it
   * did not show is absent): `approve` re-plans a row whose product shows otherwise now. Absent in
   * plans made before it was kept.
   */
  before?: Record<string, CompactValue>;
  /** A row guard's reason (`--max-price-change`): this row is held whatever the run's guards say. */
  heldFor?: string;
  /** The row's raw source values: kept by the row if its write later fails (`report --failed-only`). */
  source?: RowSource;
}

// A row is planned once (HSETNX), and only while it is not settled: `planned` + `settled` then
// count each row of the run once, and tell when every row is planned (decide.ts). The plan lives as
// long as the run's other data, also when the run never ends (finish() renews it with the rest).
const PLAN_SCRIPT = luaScript(
  'plan',
  3,
  `
local planned = 0
for i = 1, #ARGV, 3 do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 and redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    planned = planned + 1
    redis.call('HINCRBY', KEYS[3], 'plan:' .. ARGV[i + 2], 1)
  end
end
if planned > 0 then redis.call('HINCRBY', KEYS[3], 'planned', planned) end
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ${RUN_TTL_SECONDS}) end
return planned
`,
);

// A create's plan replaced by the update it became at its write, held (guards/held-at-write.ts):
// counted with the rows the row guard held, once (ARGV[3] is 0 when the plan was held already).
const HOLD_AT_WRITE_SCRIPT = luaScript(
  'holdAtWrite',
  2,
  `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == '1' then return redis.call('HINCRBY', KEYS[2], 'plan:held', 1) end
return tonumber(redis.call('HGET', KEYS[2], 'plan:held') or '0')
`,
);

/** The run's planned writes, in Redis (memory stays flat in the process whatever the run's size). */
export class PlanStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Records planned writes; a row planned or settled already is left as it is. */
  async record(runId: string, writes: PlannedWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const args: string[] = [];
    const stored = new StoredSources(this.keys.planParents(runId));
    for (const write of writes) {
      const counted = write.heldFor ? 'held' : write.action;
      const kept = write.source ? { ...write, source: stored.stored(write.source) } : write;
      args.push(String(write.upsert.row), JSON.stringify(kept), counted);
    }
    await stored.sendWith(
      this.redis,
      PLAN_SCRIPT,
      this.keys.plan(runId),
      this.keys.outcomes(runId),
      this.keys.run(runId),
      ...args,
    );
  }

  /**
   * A row planned as a create that met, at its write, the product another run made meanwhile, and
   * was held as the update it became (guards/held-at-write.ts): that update is its plan now, for
   * `approve` to send and to compare with; the source values the plan kept stay. Resolves to the
   * rows the row guard holds so far, this one counted once.
   */
  async holdAtWrite(runId: string, write: PlannedWrite): Promise<number> {
    const [old] = (await this.get(runId, [write.upsert.row])).values();
    // The row as read (the key as the source spells it), and its source values as stored (parents
    // by row number, StoredSources): written back as they were read.
    const kept = {
      ...write,
      upsert: old?.upsert ?? write.upsert,
      ...(old?.source ? { source: old.source } : {}),
    };
    const counted = await runScript(
      this.redis,
      HOLD_AT_WRITE_SCRIPT,
      this.keys.plan(runId),
      this.keys.run(runId),
      String(write.upsert.row),
      JSON.stringify(kept),
      old?.heldFor ? 0 : 1,
    );
    return Number(counted);
  }

  /**
   * The planned writes of these rows (rows without one are absent). A source names the rows it took
   * fields from by number: `sources` gives their values, for the rows that need them.
   */
  async get(runId: string, rows: number[]): Promise<Map<number, PlannedWrite>> {
    const found = new Map<number, PlannedWrite>();
    if (rows.length === 0) return found;
    const values = await this.redis.hmget(this.keys.plan(runId), ...rows.map(String));
    rows.forEach((row, i) => {
      const value = values[i];
      if (value) found.set(row, JSON.parse(value) as PlannedWrite);
    });
    return found;
  }

  /** The source values of these rows' planned writes, with their parents' values (a failed row's report line). */
  async sources(runId: string, rows: number[]): Promise<Map<number, RowSource>> {
    const sources = new Map<number, RowSource>();
    for (const [row, write] of await this.get(runId, rows)) if (write.source) sources.set(row, write.source);
    const named = [...sources.values()].flatMap(parentRowsOf);
    if (named.length === 0) return sources;
    const parents = await parentValues(this.redis, this.keys.planParents(runId), named);
    for (const [row, source] of sources) sources.set(row, withParentValues(source, parents));
    return sources;
  }

  /** Every planned write in source order, read in batches: the same order each time it is read. */
  async *inOrder(runId: string, total: number, batchSize = 500): AsyncGenerator<PlannedWrite> {
    for (let first = 1; first <= total; first += batchSize) {
      const rows = Array.from({ length: Math.min(batchSize, total - first + 1) }, (_, i) => first + i);
      const found = await this.get(runId, rows);
      for (const row of rows) {
        const write = found.get(row);
        if (write) yield write;
      }
    }
  }
}
