import { describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { pipelineEnv, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const OTHER_KEY = 'sk_test_list_other';
const OTHER_SELLER = 'seller-list-other';

/** The morning after: last night's runs, per seller, without knowing their ids. */
describe('status --list and status --seller', () => {
  const pipeline = usePipeline();

  /** Three runs: shop-a, then shop-b, then shop-a again as a dry run; their ids in that order. */
  async function threeRuns(): Promise<string[]> {
    pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
    const source = await pipeline.csv('night.csv', catalogRows(3));
    const other = pipelineEnv(pipeline.sandbox, OTHER_KEY, pipeline.prefix);
    const ids: string[] = [];
    for (const [args, env] of [
      [['--seller', 'shop-a'], pipeline.env],
      [['--seller', 'shop-b'], other],
      [['--seller', 'shop-a', '--dry-run'], pipeline.env],
    ] as const) {
      const ran = await pipeline.cli(['run', source, ...args], env);
      expect(ran.code).toBe(0);
      ids.push(runIdOf(ran.stdout));
    }
    return ids;
  }

  it('lists the runs of the last day, newest first, each with its seller, state and outcome', async () => {
    const [first, second, third] = await threeRuns();

    const listed = await pipeline.cli(['status', '--list']);

    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.map((line) => line.split('  ')[0])).toEqual([third, second, first]);
    expect(lines[0]).toMatch(
      / {2}done \(dry run\) {2}seller shop-a \([0-9a-f]{16}\) {2}.*night\.csv {2}0 to create/,
    );
    expect(lines[1]).toMatch(/ {2}done {2}seller shop-b .* {2}3 created, 0 updated, 0 unchanged/);
  });

  it("says a run's deactivations (--missing) beside its rows' outcomes", async () => {
    const first = await pipeline.cli(['run', await pipeline.csv('all.csv', catalogRows(3))]);
    expect(first.code, first.stderr).toBe(0);
    const rows = catalogRows(2).map((row, i) => (i === 0 ? { ...row, price: '77.00' } : row));
    const second = await pipeline.cli([
      'run',
      await pipeline.csv('two.csv', rows),
      '--missing',
      'quantity=0',
      '--max-missing',
      '1',
    ]);
    expect(second.code, second.stderr).toBe(0);

    const listed = await pipeline.cli(['status', '--list']);

    const [newest] = listed.stdout.trim().split('\n');
    expect(newest).toMatch(/ {2}0 created, 1 updated, 1 unchanged, 0 invalid, 0 failed, 1 deactivated$/);
  });

  it('keeps to one seller with --seller, in text and in JSON', async () => {
    const [first, , third] = await threeRuns();

    const text = await pipeline.cli(['status', '--list', '--seller', 'shop-a']);
    const json = await pipeline.cli(['status', '--list', '--seller', 'shop-a', '--json']);

    expect(
      text.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('  ')[0]),
    ).toEqual([third, first]);
    const runs = JSON.parse(json.stdout) as Array<{
      id: string;
      sellerName: string;
      counts: { created: number };
    }>;
    expect(runs.map((run) => [run.id, run.sellerName, run.counts.created])).toEqual([
      [third, 'shop-a', 0],
      [first, 'shop-a', 3],
    ]);
  });

  it('shows the latest run of a seller with --seller alone', async () => {
    const [, second] = await threeRuns();

    const shown = await pipeline.cli(['status', '--seller', 'shop-b']);

    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`run ${second}: done`);
  });

  it('passes over an id whose run has no record, as an import that stepped aside once left', async () => {
    const [, second, third] = await threeRuns();
    const phantom = '20991231T235959-a9efee';
    const ref = sellerRef(pipeline.sandbox.baseUrl, OTHER_KEY);
    await withRedis(async (redis) => {
      await redis.zadd(`${pipeline.prefix}:seller:${ref}:runs`, Date.now() + 1000, phantom);
      await redis.zadd(`${pipeline.prefix}:runs`, Date.now() + 1000, phantom);
    });

    const ofSeller = await pipeline.cli(['status', '--seller', 'shop-b']);
    const latest = await pipeline.cli(['status']);

    expect([ofSeller.code, ofSeller.stderr]).toEqual([0, '']);
    expect(ofSeller.stdout).toContain(`run ${second}: done`);
    expect([latest.code, latest.stderr]).toEqual([0, '']);
    expect(latest.stdout).toContain(`run ${third}: done`);
  });

  it('says so in one line for an unknown seller, an empty window or a bad combination (exit 2)', async () => {
    await threeRuns();
    for (const [args, message] of [
      [['--seller', 'nobody'], '--seller nobody: no such seller has a run or a queue here'],
      [['--list', '--since', 'soon'], '--since soon: not a duration (e.g. 24h, 7d)'],
      // A bare number was read as milliseconds: `no run in the last 24`, a silent wrong answer.
      [['--list', '--since', '24'], '--since: 24 has no unit: give --since 24h (units: ms, s, m, h, d)'],
      [['--since', '2h'], '--since goes with --list'],
    ] as const) {
      const refused = await pipeline.cli(['status', ...args]);
      expect([refused.code, refused.stderr.trim()]).toEqual([2, `catalog-sync: ${message}`]);
    }
    const none = await pipeline.cli(['status', '--list', '--since', '1ms']);
    expect([none.code, none.stdout]).toEqual([0, 'no run in the last 1ms\n']);
  });
});
