import type { ChainableCommander, Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import { queueSetAbsent, SLICE_SCRIPTS } from '../redis/lua-slices.js';
import { defineScripts, type LuaScript, queueScript } from '../redis/scripts.js';
import type { ParentSource, RowSource } from './source-rows.js';

/**
 * The rows a failed row or a planned write takes product fields from (a variant's parent) are kept
 * once per run (keys.parentSources): the row itself stores only their numbers. Forty variants of
 * one Shopify handle would otherwise each keep its title row and its image rows.
 */
export type StoredSource = string[] | { values: string[]; parents: number[] };

/**
 * The rows a stored source names, with the values kept in `found` (a parent stored whole, by a
 * version that kept its values with the row, keeps them; one whose values were not kept is left out).
 */
export function withParentValues(
  source: RowSource,
  found: ReadonlyMap<number, string[]>,
): string[] | { values: string[]; parents: ParentSource[] } {
  if (Array.isArray(source)) return source;
  const parents = source.parents.flatMap((parent) => {
    if (typeof parent !== 'number') return [parent];
    const values = found.get(parent);
    return values ? [{ row: parent, values }] : [];
  });
  return { values: source.values, parents };
}

/** The row numbers a source names as parents without their values (to look up in a kept hash). */
export function parentRowsOf(source: RowSource): number[] {
  return Array.isArray(source) ? [] : source.parents.filter((parent) => typeof parent === 'number');
}

/** The form a row's source is stored in, and the parents' values still to keep. */
export function toStored(source: RowSource): { stored: StoredSource; parents: ParentSource[] } {
  if (Array.isArray(source)) return { stored: source, parents: [] };
  const parents = source.parents.filter((parent): parent is ParentSource => typeof parent !== 'number');
  const rows = source.parents.map((parent) => (typeof parent === 'number' ? parent : parent.row));
  return { stored: { values: source.values, parents: rows }, parents };
}

/**
 * Rows' sources turned into their stored form as they are written, gathering the parents' values,
 * which `queue` or `send` then keep once (HSETNX) in `hash`, for the run's lifetime: the run's
 * parentSources for failed rows, its planParents for planned writes.
 */
export class StoredSources {
  private readonly parents = new Map<number, ParentSource>();

  constructor(private readonly hash: string) {}

  stored(source: RowSource): StoredSource {
    const converted = toStored(source);
    for (const parent of converted.parents) this.parents.set(parent.row, parent);
    return converted.stored;
  }

  /** The stored form as JSON, '' for none (the settle scripts' "no values"). */
  json(source: RowSource | undefined): string {
    return source === undefined ? '' : JSON.stringify(this.stored(source));
  }

  /** Queues the parents' values on `commands` (the MULTI that stores the rows). */
  queue(commands: ChainableCommander): void {
    if (this.parents.size === 0) return;
    const pairs = [...this.parents.values()].flatMap((parent) => [
      String(parent.row),
      JSON.stringify(parent.values),
    ]);
    queueSetAbsent(commands, this.hash, pairs);
    commands.expire(this.hash, RUN_TTL_SECONDS);
  }

  /**
   * Runs `script` (keys, then arguments) after the parents' values are written, in one round trip;
   * resolves to the script's answer.
   */
  async sendWith(redis: Redis, script: LuaScript, ...args: (string | number)[]): Promise<unknown> {
    defineScripts(redis, script, ...SLICE_SCRIPTS);
    const pipeline = redis.pipeline();
    this.queue(pipeline);
    queueScript(pipeline, script, ...args);
    const results = (await pipeline.exec()) ?? [];
    for (const [error] of results) if (error) throw error;
    return results.at(-1)?.[1];
  }
}

/** The values of these parent rows kept in `hash` (a row whose values were not kept is absent). */
export async function parentValues(
  redis: Redis,
  hash: string,
  rows: readonly number[],
): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  const unique = [...new Set(rows)];
  if (unique.length === 0) return found;
  const values = await redis.hmget(hash, ...unique.map(String));
  unique.forEach((row, i) => {
    const json = values[i];
    if (json) found.set(row, JSON.parse(json) as string[]);
  });
  return found;
}
