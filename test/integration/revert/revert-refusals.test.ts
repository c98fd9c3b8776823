import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { runSpec } from '../../support/run-record.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { until } from '../support/until.js';
import { changingRun, nameAndPrice, putsSinceReset, RUN_ROWS, SEEDED } from './support.js';

/** Exactly one line on standard error, matching `pattern`, and nothing on standard output. */
function oneLine(result: { stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
  expect(result.stdout).toBe('');
}

describe('`revert` refuses, in one line and exit 2, what it cannot revert', () => {
  const pipeline = usePipeline();

  it('an unknown run id', async () => {
    const result = await pipeline.cli(['revert', '20240101T000000-abcdef']);

    expect(result.code).toBe(2);
    oneLine(result, /no run 20240101T000000-abcdef in Redis/);
  });

  it('a dry run, which wrote nothing', async () => {
    pipeline.sandbox.seedProducts('seller-main', SEEDED);
    const dry = await pipeline.cli(['run', await pipeline.csv('catalog.csv', RUN_ROWS), '--dry-run']);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runIdOf(dry.stdout)]);

    expect(result.code).toBe(2);
    oneLine(result, /was a dry run: it wrote nothing/);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it("a run of another seller: the key in use is another seller's", async () => {
    const { runId } = await changingRun(pipeline);
    pipeline.sandbox.addKey('sk_test_other', 'seller-other');
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId], { SELLER_API_KEY: 'sk_test_other' });

    expect(result.code).toBe(2);
    oneLine(result, /is seller [0-9a-f]{16}'s; the key in SELLER_API_KEY .* is seller [0-9a-f]{16}'s/);
    // The options that fix it, as `approve` names them.
    expect(result.stderr).toContain(
      'nothing was read or sent; give the --keys-file that holds its key, or name the variable that holds its key with --key-env\n',
    );
    expect(result.stderr).not.toContain('sk_test_other');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a run that has not ended', async () => {
    const { runId } = await changingRun(pipeline);
    const sellerRef = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).sellerRef;
    const queued = await withRedis((redis) =>
      new RunStore(redis, new RedisKeys(pipeline.prefix)).create(runSpec({ sellerRef })),
    );

    const result = await pipeline.cli(['revert', queued.id]);

    expect(result.code).toBe(2);
    oneLine(result, /has not ended \(queued\): revert it once it has/);
  });
});

describe('`revert` stopped by the API', () => {
  const pipeline = usePipeline();

  it('on a 429 half way: exit 4, one line saying to re-run after the reset; the re-run finishes the rest', async () => {
    const { runId, ids } = await changingRun(pipeline);
    // From now on (the sandbox counts while a limit is set): the list read and one PUT, not the second PUT.
    pipeline.sandbox.setFaults({ dailyLimit: 2 });
    pipeline.sandbox.resetStats();

    const stopped = await pipeline.cli(['revert', runId, '--concurrency', '1']);

    expect(stopped.code).toBe(4);
    expect(stopped.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `after 1 of 2 products was put back: re-run \`catalog-sync revert ${runId}\` after the reset`,
        ),
      ),
    ]);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 6 });
    expect(putsSinceReset(pipeline).map((put) => put.status)).toEqual([200, 429]);
    // `status` lists the partial revert and why it stopped, with the reset's time.
    const sellerRef = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).sellerRef;
    const keys = new RedisKeys(pipeline.prefix);
    const until = Number(await withRedis((redis) => redis.get(keys.pausedUntil(sellerRef))));
    const hhmm = new Date(until).toISOString().slice(11, 16);
    expect((await pipeline.cli(['status', runId])).stdout).toMatch(
      new RegExp(
        `^ {2}reverted {2}reverted at \\S+Z: 1 product put back, .*, 1 left \\(stopped: the daily limit is spent until ${hhmm} UTC: revert it again then\\)$`,
        'm',
      ),
    );

    // The reset: the API takes requests again, and the seller's pause is over.
    pipeline.sandbox.setFaults({ dailyLimit: null });
    await withRedis((redis) => redis.del(keys.pausedUntil(sellerRef)));
    pipeline.sandbox.resetStats();

    const rerun = await pipeline.cli(['revert', runId]);

    expect(rerun.code).toBe(0);
    expect((await pipeline.cli(['status', runId])).stdout).toMatch(
      /^ {2}reverted {2}reverted at \S+Z: 1 product put back, [^(]*$/m,
    );
    expect(putsSinceReset(pipeline)).toEqual([{ id: ids.get('MUG'), body: { price: 5 }, status: 200 }]);
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 5 });
  });

  it('on a 401: exit 3, one line', async () => {
    const { runId } = await changingRun(pipeline);
    pipeline.sandbox.revokeKey(pipeline.env.SELLER_API_KEY ?? '');

    const result = await pipeline.cli(['revert', runId]);

    expect(result.code).toBe(3);
    oneLine(result, /the key in SELLER_API_KEY was rejected \(401\)/);
  });

  it('on a 401 half way: exit 3, and `status` lists what was put back and why it stopped', {
    timeout: 30_000,
  }, async () => {
    const { runId } = await changingRun(pipeline);
    pipeline.sandbox.resetStats();
    pipeline.sandbox.setFaults({ latencyMs: 300 });
    const revert = pipeline.spawn(['revert', runId, '--concurrency', '1']);
    await until('the first PUT received', () => putsSinceReset(pipeline).length >= 1);
    pipeline.sandbox.revokeKey(pipeline.env.SELLER_API_KEY ?? '');

    expect((await revert.exited).code).toBe(3);
    expect(revert.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(
        /the key in SELLER_API_KEY was rejected \(401\) after 1 of 2 products was put back$/,
      ),
    ]);
    expect((await pipeline.cli(['status', runId])).stdout).toMatch(
      /^ {2}reverted {2}reverted at \S+Z: 1 product put back, .*, 1 left \(stopped: the key was rejected \(401\): put the working key in place, then revert it again\)$/m,
    );
  });
});
