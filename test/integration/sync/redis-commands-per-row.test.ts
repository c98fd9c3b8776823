import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCalls, commandsBetween, totalCommands } from '../../../src/redis/command-counts.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { catalogRows, writeCsv } from '../support/catalog.js';
import { runCli } from '../support/cli.js';
import { freePort, OwnRedis } from '../support/own-redis.js';

const KEY = 'sk_commands';
// The bench's scale (bench/goals/pace.ts): at 400 rows a run's fixed cost (its record, BullMQ's
// per-queue commands, the list read's lock) was ~0.5 of the --incremental re-run's commands per row.
const ROWS = 2000;
// Issue 31's bound for a created row is 8; the wait of a settle keeps batches whole under load, but
// not whole enough at a load average of 28 (a full CI beside other work): 6.5–6.6 measured on a quiet
// machine, 7.16 so. One more command a row still goes over.
const CREATED_AT_MOST = 7.5;
// An unchanged nightly `--missing` re-run: the list read's and the missing scan's look-ups.
const MISSING_AT_MOST = 4;

/**
 * Redis commands per row of `catalog-sync run`, counted exactly by the server (INFO commandstats, the
 * commands of Lua scripts included): a Redis of this file's own, so no other test's commands mix in.
 * The bounds are the figures measured when they were set, rounded up to the next 0.5: a change that
 * adds a command to a row's path goes over. Issue 31's goals are ≤ 8 per created row, ≤ 3 per
 * unchanged row, ≤ 1 per unchanged row with `--incremental`. Measure again with
 *   COMMANDS_PER_ROW=print npx vitest run test/integration/sync/redis-commands-per-row.test.ts
 */
describe('Redis commands per row of a sync', () => {
  let dir = '';
  let server: OwnRedis;
  let counter: Redis;
  let sandbox: Sandbox;
  let path = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-commands-'));
    server = new OwnRedis(await freePort(), dir, { persistence: false });
    await server.start();
    counter = server.client();
    await counter.ping();
    // A little latency and 16 requests at once, as the goals are measured; 100 products per list page.
    sandbox = await startSandbox({ keys: [{ key: KEY, seller: 'seller-commands' }], latencyMs: 5 });
    path = await writeCsv(dir, 'catalog.csv', catalogRows(ROWS));
  });

  afterAll(async () => {
    counter?.disconnect();
    await sandbox?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** `run <catalog> --concurrency 16 …flags`: its Redis commands per row, less the counter's INFO. */
  async function commandsPerRow(label: string, flags: string[] = []): Promise<number> {
    const before = await commandCalls(counter);
    const result = await runCli(['run', path, '--concurrency', '16', ...flags], {
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: KEY,
      REDIS_URL: server.url,
      CATALOG_SYNC_PREFIX: 'cs-commands',
      LOG_LEVEL: 'silent',
      // Commands a clock drives (a chunk's lock renewed and read every half lock, the stall check) are
      // per second, not per row: a run slowed down by a loaded machine (CI at load 28) sent enough of
      // them to pass the bound with no row's path changed. A lock longer than any run here keeps them out.
      CATALOG_SYNC_LOCK_MS: '120000',
    });
    expect(result.code, result.stderr).toBe(0);
    const commands = commandsBetween(before, await commandCalls(counter), 1);
    const perRow = totalCommands(commands) / ROWS;
    if (process.env.COMMANDS_PER_ROW === 'print') {
      const top = [...commands]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${(n / ROWS).toFixed(2)}`);
      console.log(`${label}: ${perRow.toFixed(2)} commands per row (${top.join(', ')})`);
    }
    return perRow;
  }

  it('pins the fresh sync, the unchanged re-run and the unchanged --incremental re-run', {
    timeout: 120_000,
  }, async () => {
    const created = await commandsPerRow('fresh sync (creates)');
    const unchanged = await commandsPerRow('unchanged re-run (list read)');
    // The nightly form: nothing gone, so `--max-missing` weighs nothing before the writes (one pass
    // over the listed products) and the missing scan at the end finds nothing due.
    const missing = await commandsPerRow('unchanged --missing re-run', ['--missing', 'quantity=0']);
    // The first --incremental run reads the products (no earlier --incremental run did); the second does not.
    await commandsPerRow('first --incremental run (list read)', ['--incremental']);
    const incremental = await commandsPerRow('unchanged --incremental re-run', ['--incremental']);

    expect(sandbox.products('seller-commands')).toHaveLength(ROWS);
    // Measured 5.5 at 2,000 rows since a settle waits for the rows of its chunk still running
    // (settle-batch.ts; 6.2 at 20 ms latency). Issue 31: ≤ 8; 7.3–7.4 before
    // that wait, 22.4–22.5 before a turn's claims went as one script execution and the settle and its
    // records cost commands per batch. Per row remain the id map's bucket and reverse bucket (2 HSETs)
    // and the chunk's and the claim's looks into the id map (2 HGETs).
    expect.soft(created).toBeLessThanOrEqual(CREATED_AT_MOST);
    // Measured 1.81 at 2,000 rows (2.29–2.37 at 400; issue 31: ≤ 3; 8.24–8.27 before): the id map's
    // read (~0.95: 100-row chunks' keys fall in ~95 of its 1,024 buckets, one HGET each) and the rest.
    expect.soft(unchanged).toBeLessThanOrEqual(2);
    // Measured 3.49 (3.47 before a --missing run planned first for --max-missing; 14.6 with a settle
    // per planned row, 6.7 with the products gone counted by a second missing scan when none is).
    expect.soft(missing).toBeLessThanOrEqual(MISSING_AT_MOST);
    // Measured 0.84 at 2,000 rows (issue 31: ≤ 1): chunks of 1,000 rows (INCREMENTAL_CHUNK_SIZE),
    // whose keys fall in ~630 buckets, and whose job and settle are shared by ten times the rows.
    // 1.70 with chunks of 100 (2.18–2.22 at 400 rows; 7.16–7.18 before issue 31's changes).
    expect.soft(incremental).toBeLessThanOrEqual(1);
  });
});
