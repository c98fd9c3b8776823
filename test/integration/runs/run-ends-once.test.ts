import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { HeldRows } from '../../../src/guards/held-rows.js';
import type { RowOutcome } from '../../../src/interfaces.js';
import { createLogger } from '../../../src/logger.js';
import type { RunNotifier } from '../../../src/notify/notifier.js';
import { cancelledOutcomes } from '../../../src/queue/cancelled-outcomes.js';
import { endIfFinalisationOver, tellApprovalEnd } from '../../../src/queue/finalise.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { type RunRecord, RunStore } from '../../../src/runs/run-store.js';
import { runSpec } from '../../support/run-record.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

// A run ends once, whoever ends it: its record's end (RunStore.finish) moves its state once, and
// the end step (queue/finalise.ts) tells its webhook and logs its end only for the caller that did.
// A cancelled approval's last rows may be resettled by the cancel and a worker at once: both then
// ask for the end, and it happens once. Real Redis, a prefix of the test's own.

const rig = usePrefixedRedis();
let redis: Redis;
let keys: RedisKeys;
let runs: RunStore;
let told: Array<{ event: string; run: RunRecord }>;
let logged: Array<Record<string, unknown>>;
let deps: Parameters<typeof endIfFinalisationOver>[0];

beforeEach(() => {
  redis = rig.redis;
  keys = new RedisKeys(rig.prefix);
  runs = new RunStore(redis, keys);
  told = [];
  logged = [];
  const notifier = {
    notifyRun: async (event: string, run: RunRecord) => {
      told.push({ event, run });
    },
  } as unknown as RunNotifier;
  const lines = new PassThrough();
  lines.on('data', (line: Buffer) => logged.push(JSON.parse(line.toString('utf8'))));
  deps = { redis, keys, runs, notifier, logger: createLogger('info', lines) };
});

const HELD = 20;

/** A run held with HELD rows, approved (`approving`), its finalisation over, then cancelled. */
async function cancelledApproval(extraHeld = 0): Promise<string> {
  const id = await approval(extraHeld);
  await redis.hset(keys.run(id), 'cancelledAt', Date.now());
  return id;
}

/** A run held with HELD rows (and `extraHeld` left out of `approve --rows`), approved, its finalisation over. */
async function approval(extraHeld = 0): Promise<string> {
  const run = await runs.create(runSpec());
  const held = Array.from({ length: HELD + extraHeld }, (_, i): RowOutcome => {
    const row = i + 1;
    return { row, key: `SKU-${row}`, action: 'update', productId: String(row), status: 'held', error: '' };
  });
  await runs.settle(run.id, held);
  await runs.markProduced(run.id, held.length);
  await redis.hset(keys.run(run.id), {
    state: 'running',
    approving: HELD,
    finalising: 'done',
  });
  return run.id;
}

const rows = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ row: from + i, key: `SKU-${from + i}` }));

/** The approved writes of rows from..to, as an approve chunk resettles them. */
const written = (from: number, to: number): RowOutcome[] =>
  rows(from, to).map(({ row, key }) => ({
    row,
    key,
    action: 'update',
    productId: String(row),
    status: 'ok',
    error: '',
  }));

describe('the end of a run', () => {
  it("is its record's once: a second finish changes nothing and says so", async () => {
    const { id } = await runs.create(runSpec());
    await runs.markProduced(id, 0);

    expect(await runs.finish(id, 1_000, { cancelled: true })).toBe(true);
    expect(await runs.finish(id, 2_000)).toBe(false);

    expect(await runs.get(id)).toMatchObject({ state: 'cancelled', finishedAt: 1_000 });
  });

  it('of a cancelled approval whose last rows the cancel and a worker resettle at once: one webhook, one log line', async () => {
    for (let round = 0; round < 10; round++) {
      told = [];
      logged.length = 0;
      const id = await cancelledApproval();
      const held = new HeldRows(redis, keys);
      // The cancel's rows and the worker's chunk, each followed by its ask for the end.
      const ender = async (from: number, to: number) => {
        await held.resettle(id, cancelledOutcomes(rows(from, to)));
        return endIfFinalisationOver(deps, id);
      };

      const ended = await Promise.all([ender(1, 10), ender(11, HELD), endIfFinalisationOver(deps, id)]);

      expect(ended.filter(Boolean)).toHaveLength(1);
      expect(told.map(({ event, run }) => `${event} ${run.state}`)).toEqual(['ended cancelled']);
      expect(told[0]?.run.counts).toMatchObject({ 'pair:skipped:ok': HELD, 'status:held': 0 });
      expect(logged.filter((line) => line.msg === `run ${id} cancelled`)).toHaveLength(1);
      const run = await runs.get(id);
      expect(run).toMatchObject({ state: 'cancelled', settled: HELD });
      expect(run?.finishedAt).toBe(told[0]?.run.finishedAt);
    }
  });

  it('is not followed by a resettle: an ended run keeps the counts it ended with', async () => {
    // Row 21 was left out of `approve --rows`: it stays held once the round is over.
    const id = await cancelledApproval(1);
    const held = new HeldRows(redis, keys);
    await held.resettle(id, cancelledOutcomes(rows(1, HELD)));
    expect(await endIfFinalisationOver(deps, id)).toBe(true);
    const ended = await runs.get(id);

    expect(await held.resettle(id, cancelledOutcomes(rows(HELD + 1, HELD + 1)))).toBe(0);
    expect(await endIfFinalisationOver(deps, id)).toBe(false);

    expect((await runs.get(id))?.counts).toEqual(ended?.counts);
    expect(told).toHaveLength(1);
  });

  it('of an approval whose last rows two workers resettle at once: its round ends in that step, told and logged once', async () => {
    for (let round = 0; round < 10; round++) {
      told = [];
      logged.length = 0;
      const id = await approval();
      const held = new HeldRows(redis, keys);
      const worker = async (from: number, to: number) => {
        await held.resettle(id, written(from, to));
        return tellApprovalEnd(deps, id);
      };

      const ended = await Promise.all([worker(1, 10), worker(11, HELD), tellApprovalEnd(deps, id)]);

      expect(ended.filter(Boolean)).toHaveLength(1);
      expect(told.map(({ event, run }) => `${event} ${run.state}`)).toEqual(['ended done']);
      expect(told[0]?.run.counts).toMatchObject({ 'pair:update:ok': HELD, 'status:held': 0 });
      expect(logged.filter((line) => line.msg === `run ${id} done`)).toHaveLength(1);
    }
  });

  it('of an approval whose worker stopped after its last row: the next to ask tells it, once', async () => {
    const id = await approval();
    // The worker resettled the round's last rows, then stopped before it told the end.
    await new HeldRows(redis, keys).resettle(id, written(1, HELD));
    expect(await runs.get(id)).toMatchObject({ state: 'done' });
    expect(told).toHaveLength(0);

    expect(await tellApprovalEnd(deps, id)).toBe(true);
    expect(await tellApprovalEnd(deps, id)).toBe(false);

    expect(told.map(({ event, run }) => `${event} ${run.state}`)).toEqual(['ended done']);
    expect(logged.filter((line) => line.msg === `run ${id} done`)).toHaveLength(1);
  });

  it('of an `approve --rows` round that leaves rows held: logged `held`, not told (the run waits again)', async () => {
    const id = await approval(1);
    await new HeldRows(redis, keys).resettle(id, written(1, HELD));

    expect(await tellApprovalEnd(deps, id)).toBe(true);

    expect(await runs.get(id)).toMatchObject({ state: 'held' });
    expect(told).toHaveLength(0);
    expect(logged.filter((line) => line.msg === `run ${id} held`)).toMatchObject([
      { held: 1, updated: HELD },
    ]);
  });
});
