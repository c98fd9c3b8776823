import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../../src/interfaces.js';
import { producingBeat } from '../../../src/queue/producing-mark.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { runSpec } from '../../support/run-record.js';
import { parseCsv } from '../support/catalog.js';
import { runCli } from '../support/cli.js';
import { TEST_REDIS_URL, usePrefixedRedis } from '../support/redis-prefix.js';

/**
 * A prober's finding: `report <run-id>` of a run not over listed each row not settled yet as
 * `N,,invalid,,failed,not settled yet,` and exited 0, while `status` said 0 invalid, 0 failed: a
 * script counting the report's failures counted queued rows. The contract's actions and statuses
 * hold no such line: rows still to settle are left out (as `--failed-only` leaves them out), and one
 * line on stderr says the run is not over and how many rows are still to settle.
 */
const ACTIONS = ['create', 'update', 'unchanged', 'invalid', 'merged', 'skipped', 'missing', 'deactivate'];
const STATUSES = ['ok', 'failed', 'planned', 'held'];

describe('the report of a run not over', () => {
  const rig = usePrefixedRedis();
  const folder = mkdtempSync(join(tmpdir(), 'catalog-sync-report-unsettled-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const cli = (args: string[]) =>
    runCli(args, { REDIS_URL: TEST_REDIS_URL, CATALOG_SYNC_PREFIX: rig.prefix, LOG_LEVEL: 'silent' });

  const created = (row: number): RowOutcome => ({
    row,
    key: `SKU-${row}`,
    action: 'create',
    productId: String(100 + row),
    status: 'ok',
    error: '',
  });

  /** A running run of `total` rows read, of which only `settledRows` have settled. */
  async function runningRun(total: number, settledRows: number[], produced = true): Promise<string> {
    const runs = new RunStore(rig.redis, new RedisKeys(rig.prefix));
    const { id } = await runs.create(runSpec());
    await runs.markRunning(id);
    await runs.settle(id, settledRows.map(created));
    if (produced) await runs.markProduced(id, total);
    else await runs.setTotalSoFar(id, total);
    return id;
  }

  it('lists only the settled rows, every line one the contract knows; says on stderr how many are left', async () => {
    const id = await runningRun(5, [2, 4]);

    const report = await cli(['report', id]);

    expect(report.code).toBe(0);
    const lines = parseCsv(report.stdout);
    expect(lines.map((line) => line.row)).toEqual(['2', '4']);
    for (const line of lines) {
      expect(ACTIONS).toContain(line.action);
      expect(STATUSES).toContain(line.status);
    }
    expect(report.stdout).not.toContain('not settled yet');
    expect(report.stderr.trim().split('\n')).toEqual([
      `catalog-sync: run ${id} is not over (running): 3 rows still to settle are not listed; report it again once it ends`,
    ]);
  });

  it('--out writes the same clean CSV; the line on stderr says it too', async () => {
    const id = await runningRun(3, [1]);
    const out = join(folder, 'report.csv');

    const report = await cli(['report', id, '--out', out]);

    expect(report.code).toBe(0);
    expect(parseCsv(await readFile(out, 'utf8')).map((line) => line.row)).toEqual(['1']);
    expect(report.stderr).toMatch(/is not over \(running\): 2 rows still to settle are not listed/);
  });

  it('a run whose source is still being read says its count is of the rows read so far', async () => {
    const id = await runningRun(2, [1], false);
    // Its reader lives: its mark is there (a reader writes it before it counts a row).
    const keys = new RedisKeys(rig.prefix);
    await producingBeat({ redis: rig.redis, keys }, id, runSpec().sellerRef)();

    const report = await cli(['report', id]);

    expect(parseCsv(report.stdout).map((line) => line.row)).toEqual(['1']);
    expect(report.stderr.trim()).toBe(
      `catalog-sync: run ${id} is not over (running): 1 row read so far still to settle is not listed, its source is still being read; report it again once it ends`,
    );
  });

  it('a run whose reader was killed (its mark gone) is not said to be still being read', async () => {
    const id = await runningRun(2, [1], false);
    // Its reader's mark is gone (it expires a minute after a killed reader's last beat), and the run
    // is older than a beat (a run younger than that may not have its first mark yet).
    await rig.redis.hset(new RedisKeys(rig.prefix).run(id), 'createdAt', String(Date.now() - 600_000));

    const report = await cli(['report', id]);

    expect(parseCsv(report.stdout).map((line) => line.row)).toEqual(['1']);
    expect(report.stderr).not.toContain('still being read');
    expect(report.stderr.trim()).toBe(
      `catalog-sync: run ${id} is not over (running): 1 row read so far still to settle is not listed; ` +
        'its source was left unread: the process reading it stopped before the end; ' +
        `\`catalog-sync cancel ${id}\` ends it`,
    );
  });

  it('lists every settled row, those past the rows it counted read too (a run recorded before they were counted first)', async () => {
    // A reader killed between queueing a chunk and counting it read, under an earlier version: the
    // chunk's rows were written and settled all the same (rows 3-4 of 2 counted read).
    const id = await runningRun(2, [1, 2, 3, 4], false);

    const report = await cli(['report', id]);

    expect(parseCsv(report.stdout).map((line) => line.row)).toEqual(['1', '2', '3', '4']);
  });

  it('a run that ended says nothing on stderr', async () => {
    const runs = new RunStore(rig.redis, new RedisKeys(rig.prefix));
    const id = await runningRun(2, [1, 2]);
    await runs.finish(id);

    const report = await cli(['report', id]);

    expect(report.code).toBe(0);
    expect(parseCsv(report.stdout).map((line) => line.row)).toEqual(['1', '2']);
    expect(report.stderr).toBe('');
  });

  it("the dashboard's download (RunStore.outcomes) lists no row not settled either", async () => {
    const runs = new RunStore(rig.redis, new RedisKeys(rig.prefix));
    const id = await runningRun(3, [3]);

    const lines: RowOutcome[] = [];
    for await (const line of runs.outcomes(id)) lines.push(line);

    expect(lines.map((line) => line.row)).toEqual([3]);
  });
});
