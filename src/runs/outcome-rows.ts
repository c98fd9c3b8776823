import type { Redis } from 'ioredis';
import type { RowOutcome } from '../interfaces.js';
import { rewriteHash } from '../redis/compact-hash.js';
import { approvedQueuedTest } from './approved-queued.js';
import type { RedisKeys } from './keys.js';
import { lineOfMember } from './missing-order.js';
import { decodeOutcome } from './outcome-codec.js';
import {
  blockOfRow,
  PACKED_BLOCK_ROWS,
  type PackedRow,
  packable,
  packBlock,
  packedField,
  packedOutcome,
  unpackBlock,
} from './packed-outcomes.js';
import type { RunRecord } from './run-record.js';

/**
 * The outcomes of these rows (null: not settled), whether each is a field of its own or packed in
 * its block (packed-outcomes.ts): one round trip.
 */
export async function readOutcomes(
  redis: Redis,
  keys: RedisKeys,
  id: string,
  rows: number[],
): Promise<(RowOutcome | null)[]> {
  if (rows.length === 0) return [];
  const blocks = [...new Set(rows.map(blockOfRow))];
  const values = await redis.hmgetBuffer(keys.outcomes(id), ...rows.map(String), ...blocks.map(packedField));
  const packed = new Map<number, PackedRow>();
  blocks.forEach((block, i) => {
    const value = values[rows.length + i];
    if (value) for (const row of unpackBlock(block, value)) packed.set(row.row, row);
  });
  return rows.map((row, i) => {
    const own = values[i];
    if (own) return decodeOutcome(row, own.toString('utf8'));
    const inBlock = packed.get(row);
    return inBlock ? packedOutcome(inBlock) : null;
  });
}

/**
 * Every line of a run's report: its rows in source order, then the `missing` lines; in batches. A row
 * not settled yet (a run not over) has no line: the report's actions and statuses are the contract's,
 * and a queued row is none of them; nor is a row an `approve` under way approved and has not written
 * yet (still `held` in Redis: approved-queued.ts). `onUnsettled` is told of each row left out, so the
 * caller can say so.
 */
export async function* reportLines(
  redis: Redis,
  keys: RedisKeys,
  run: Pick<RunRecord, 'id' | 'total' | 'settled' | 'approvedQueued' | 'approvedRows'>,
  batchSize: number,
  onUnsettled?: (row: number) => void,
): AsyncGenerator<RowOutcome> {
  const id = run.id;
  const approvedQueued = approvedQueuedTest(run);
  /** Rows found settled (listed, or approved and not written yet). */
  let found = 0;
  for (let first = 1; first <= run.total; first += batchSize) {
    const rows = Array.from({ length: Math.min(batchSize, run.total - first + 1) }, (_, i) => first + i);
    const outcomes = await readOutcomes(redis, keys, id, rows);
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome) found++;
      if (outcome && !approvedQueued(outcome)) yield outcome;
      else onUnsettled?.(rows[i] as number);
    }
  }
  // Rows settled past the rows counted read: a run recorded before its producer counted a chunk's
  // rows read ahead of queueing it, its reader killed in between (producer.ts). Listed all the
  // same, never left out; a run whose counts agree reads nothing more here.
  for (let first = run.total + 1; found < run.settled; first += batchSize) {
    const rows = Array.from({ length: batchSize }, (_, i) => first + i);
    const outcomes = (await readOutcomes(redis, keys, id, rows)).filter((outcome) => outcome !== null);
    if (outcomes.length === 0) break;
    found += outcomes.length;
    for (const outcome of outcomes) if (!approvedQueued(outcome)) yield outcome;
  }
  // All scores are 0, so ranks follow the members' sort keys: ascending product id.
  for (let start = 0; ; start += batchSize) {
    const members = await redis.zrange(keys.missing(id), start, start + batchSize - 1);
    for (const member of members) yield decodeOutcome(null, lineOfMember(member));
    if (members.length < batchSize) break;
  }
  // A run finalised before the lines were sorted (kept 7 days): its lines as they were stored.
  const unsorted = keys.missingUnsorted(id);
  for (let start = 0; ; start += batchSize) {
    const values = await redis.lrange(unsorted, start, start + batchSize - 1);
    for (const value of values) yield decodeOutcome(null, value);
    if (values.length < batchSize) break;
  }
}

/**
 * Packs the plain `unchanged` outcomes of a run that ended, block by block; each block in one
 * transaction (its packed field written and its rows' own fields deleted together), so a reader
 * finds every row in one place or the other. Packing again adds to a block packed already.
 */
export async function packUnchangedOutcomes(
  redis: Redis,
  keys: RedisKeys,
  id: string,
  total: number,
): Promise<number> {
  const hash = keys.outcomes(id);
  let packedRows = 0;
  for (let block = 0; block * PACKED_BLOCK_ROWS < total; block++) {
    const first = block * PACKED_BLOCK_ROWS + 1;
    const count = Math.min(PACKED_BLOCK_ROWS, total - first + 1);
    const rows = Array.from({ length: count }, (_, i) => first + i);
    const values = await redis.hmgetBuffer(hash, ...rows.map(String), packedField(block));
    const fresh: PackedRow[] = [];
    rows.forEach((row, i) => {
      const value = values[i];
      const unchanged = value ? packable(row, value.toString('utf8')) : null;
      if (unchanged) fresh.push(unchanged);
    });
    if (fresh.length === 0) continue;
    const before = values[count];
    const all = before ? [...unpackBlock(block, before), ...fresh] : fresh;
    await redis
      .multi()
      .hset(hash, packedField(block), packBlock(all))
      .hdel(hash, ...fresh.map((r) => String(r.row)))
      .exec();
    packedRows += fresh.length;
  }
  // The rows' fields are gone, their table not yet (compact-hash.ts).
  if (packedRows > 0) await rewriteHash(redis, hash);
  return packedRows;
}
