import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

const SMALL_KEY = 'sk_test_small';
const SMALL_SELLER = 'seller-small';
const BIG_ROWS = 20_000;
const SMALL_ROWS = 20;
const LATENCY_MS = 20;
const CONCURRENCY = 8;
/**
 * The bound, "the small seller's run is done within 5 s while the big one runs", said as the
 * big seller's progress meanwhile rather than wall-clock time (timings belong in bench/): at 20 ms a
 * request and 8 at once, the big seller settles at most about 400 rows a second.
 */
const BIG_ROWS_IN_5_S = (5_000 / LATENCY_MS) * CONCURRENCY;

interface RunStatus {
  state: string;
  settled: number;
}

describe('fair share: a small seller behind a large one, on one worker', () => {
  const pipeline = usePipeline({ latencyMs: LATENCY_MS });

  async function statusOf(runId: string): Promise<RunStatus> {
    return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as RunStatus;
  }

  async function smallWhileBigRuns(workerArgs: string[]) {
    pipeline.sandbox.addKey(SMALL_KEY, SMALL_SELLER);
    const env = { SELLER_API_KEY_SMALL: SMALL_KEY };
    const big = await pipeline.cli(['import', await pipeline.csv('big.csv', catalogRows(BIG_ROWS))], env);
    expect(big.code, big.stderr).toBe(0);
    const bigRun = runIdOf(big.stdout);
    const worker = pipeline.spawn(['worker', '--concurrency', String(CONCURRENCY), ...workerArgs], env);

    // Well under way: its snapshot read and hundreds of rows written.
    while ((await statusOf(bigRun)).settled < 500) {
      if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const small = await pipeline.cli(
      [
        'import',
        await pipeline.csv('small.csv', catalogRows(SMALL_ROWS)),
        '--key-env',
        'SELLER_API_KEY_SMALL',
      ],
      env,
    );
    expect(small.code, small.stderr).toBe(0);
    const bigBefore = (await statusOf(bigRun)).settled;
    const smallRun = runIdOf(small.stdout);
    while ((await statusOf(smallRun)).state !== 'done') {
      if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bigAfter = await statusOf(bigRun);
    return { bigBefore, bigAfter };
  }

  it('starts and ends the small seller’s run while the large one runs (several queues at once)', {
    timeout: 120_000,
  }, async () => {
    const { bigBefore, bigAfter } = await smallWhileBigRuns([]);
    expect(pipeline.products(SMALL_SELLER)).toHaveLength(SMALL_ROWS);
    expect(bigAfter.state).toBe('running');
    expect(bigAfter.settled - bigBefore).toBeLessThan(BIG_ROWS_IN_5_S);
    expect(pipeline.products(MAIN_SELLER).length).toBeLessThan(BIG_ROWS);
  });

  it('lets the small seller in when its slice is over, with one queue at a time', {
    timeout: 120_000,
  }, async () => {
    const { bigBefore, bigAfter } = await smallWhileBigRuns([
      '--sellers-at-once',
      '1',
      '--seller-slice',
      '1s',
    ]);
    expect(pipeline.products(SMALL_SELLER)).toHaveLength(SMALL_ROWS);
    expect(bigAfter.state).toBe('running');
    expect(bigAfter.settled - bigBefore).toBeLessThan(BIG_ROWS_IN_5_S);
  });
});
