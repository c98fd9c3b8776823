import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DashboardData } from '../../src/dashboard/data.js';
import type { QueueCounter } from '../../src/dashboard/queue-counts.js';
import { startDashboard } from '../../src/dashboard/server.js';

const MAX_RUN_ROWS = 50_000_000;

import { RedisKeys } from '../../src/runs/keys.js';
import { unpackBlock } from '../../src/runs/packed-outcomes.js';
import { RunStore } from '../../src/runs/run-store.js';
import type { SellerRegistry } from '../../src/sellers/seller-registry.js';
import type { SellerState } from '../../src/sellers/seller-state.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { runSpec } from '../support/run-record.js';
import { loopbackNetwork, runCliWithNetwork, tempFolder } from './support.js';

/**
 * Issue 32, attacker review: after `HSET run:<id> total 1e308`, `report <id> --failed-only` read
 * outcomes in batches of 1000 over 1..total for ever, `report --out` wrote `not settled yet` lines
 * without end, and `status` printed `2 settled of 1e+308`. A row count of a run record (`total`,
 * `settled`) is a whole number up to MAX_RUN_ROWS, or every command refuses the run in one line
 * naming it and the field, exit 2, before any loop over it.
 */
const FORGED = ['9007199254740993', '1e308', 'Infinity', '-1', '2.5', String(MAX_RUN_ROWS + 1)];

describe('a row count forged in a run record', () => {
  const folder = tempFolder();
  let prefix = '';
  let redis: Redis;
  beforeEach(() => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });
  afterAll(() => folder.remove());

  /** A run that ended with two rows, then `field` overwritten as an attacker with Redis would. */
  async function forgedRun(field: 'total' | 'settled', value: string): Promise<string> {
    const runs = new RunStore(redis, new RedisKeys(prefix));
    const { id } = await runs.create(runSpec());
    await redis.hset(new RedisKeys(prefix).run(id), {
      state: 'done',
      produced: 1,
      total: 2,
      settled: 2,
      // As a run of a CSV source records them: `--failed-only` writes in its shape.
      sourceHeader: '["sku","name","price"]',
      sourceDelimiter: ',',
    });
    await redis.hset(new RedisKeys(prefix).run(id), field, value);
    return id;
  }

  const cli = (args: string[]) =>
    runCliWithNetwork(
      args,
      {
        REDIS_URL: TEST_REDIS_URL,
        CATALOG_SYNC_PREFIX: prefix,
        SELLER_API_KEY: 'sk_test_forged',
        LOG_LEVEL: 'silent',
      },
      loopbackNetwork({}),
    );

  const refusal = (id: string, field: string) =>
    new RegExp(
      `^catalog-sync: run ${id}'s record in Redis holds ${field} ".+", not a row count catalog-sync writes \\(a whole number up to 50,000,000\\): refused$`,
    );

  it.each(FORGED)(
    'total %s: report, --failed-only, status, approve, cancel and revert refuse it in one line, exit 2',
    async (value) => {
      const id = await forgedRun('total', value);
      const out = join(folder.dir, `big-${value}.csv`);
      for (const args of [
        ['report', id, '--failed-only', '--out', out],
        ['report', id, '--out', out],
        ['report', id],
        ['status', id],
        ['approve', id],
        ['cancel', id],
        ['revert', id],
      ]) {
        const result = await cli(args);
        expect({ args, code: result.code }).toEqual({ args, code: 2 });
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr.trim()).toMatch(refusal(id, 'total'));
        expect(result.stdout).toBe('');
      }
      expect(existsSync(out)).toBe(false);
    },
  );

  it('settled 1e308: status refuses it rather than print "2 settled of 1e+308"', async () => {
    const id = await forgedRun('settled', '1e308');
    const result = await cli(['status', id]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(refusal(id, 'settled'));
    expect(result.stdout).not.toContain('1e+308');
  });

  it('a count up to the cap is a run as any other: status shows it', async () => {
    const id = await forgedRun('total', String(MAX_RUN_ROWS));
    const result = await cli(['status', id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`2 settled of ${MAX_RUN_ROWS}`);
  });

  it("the dashboard: the run's report stream is refused with the line (422), and the list leaves the run out", async () => {
    const id = await forgedRun('total', '1e308');
    const keys = new RedisKeys(prefix);
    const data = new DashboardData({
      redis,
      keys,
      runs: new RunStore(redis, keys),
      sellers: {} as SellerState,
      registry: {} as SellerRegistry,
      queues: {} as QueueCounter,
    });
    const server = await startDashboard({ source: data, port: 0 });
    try {
      const report = await fetch(`${server.url}runs/${id}/report.csv`);
      expect(report.status).toBe(422);
      expect(((await report.json()) as { error: string }).error).toMatch(/holds total "1e308".*: refused$/);
      const list = await fetch(`${server.url}api/runs`);
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual({ runs: [] });
    } finally {
      await server.close();
    }
  });
});

describe("a packed block of a run's outcomes forged in Redis", () => {
  it('a range longer than the rows the block holds gives those rows, not a loop for ever', () => {
    const forged = deflateRawSync(
      JSON.stringify([
        [0, 1e308],
        ['A-1', 'B-2'],
        ['7', '8'],
      ]),
    );
    expect(unpackBlock(0, forged).map((row) => row.key)).toEqual(['A-1', 'B-2']);
  });
});
