import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

const OTHER_KEY = 'sk_test_other';
const OTHER_SELLER = 'seller-other';

interface Status {
  state: string;
  waitingForWorker: boolean;
  settled: number;
}

describe('a worker takes only the work it can do', () => {
  const pipeline = usePipeline();

  const statusOf = async (runId: string) =>
    JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Status;

  it('leaves a seller whose key it lacks alone; import and status say the run waits for a worker', {
    timeout: 60_000,
  }, async () => {
    pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
    const imported = await pipeline.cli(['import', await pipeline.csv('main.csv', catalogRows(30))]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(
      /queued, but no running worker holds seller \w+'s key: start `catalog-sync worker` with it in \$SELLER_API_KEY/,
    );
    const runId = runIdOf(imported.stdout);

    // A worker holding only the other seller's key.
    const other = pipeline.spawn(['worker'], { SELLER_API_KEY: OTHER_KEY, LOG_LEVEL: 'info' });
    const otherRun = runIdOf(
      (
        await pipeline.cli(['import', await pipeline.csv('other.csv', catalogRows(5))], {
          SELLER_API_KEY: OTHER_KEY,
        })
      ).stdout,
    );
    while ((await statusOf(otherRun)).state !== 'done') {
      if (other.process.exitCode !== null) throw new Error(`the worker exited: ${other.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // It served the other seller and has been running for seconds: the first run is untouched.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const waiting = await statusOf(runId);
    expect(waiting).toMatchObject({ state: 'queued', settled: 0, waitingForWorker: true });
    const text = (await pipeline.cli(['status', runId])).stdout;
    expect(text).toMatch(/waiting\s+no running worker holds seller \w+'s key/);
    expect(pipeline.products(MAIN_SELLER)).toHaveLength(0);
    expect(other.stderr()).not.toMatch(/another seller's key|is not set in this worker/);

    // A worker that holds the key, under a name of its own: the run ends, and waits for nobody.
    const main = pipeline.spawn(['worker'], {
      SELLER_API_KEY: '',
      SELLER_API_KEY_MAIN_SHOP: pipeline.env.SELLER_API_KEY,
    });
    while ((await statusOf(runId)).state !== 'done') {
      if (main.process.exitCode !== null) throw new Error(`the worker exited: ${main.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await statusOf(runId)).waitingForWorker).toBe(false);
    expect(pipeline.products(MAIN_SELLER)).toHaveLength(30);
  });

  it("says nothing of a missing worker when a running one takes a seller's first import", {
    timeout: 60_000,
  }, async () => {
    // The seller is new to this Redis: the worker holds its key but cannot know of it before the import.
    const worker = pipeline.spawn(['worker'], {
      SELLER_API_KEY: '',
      SELLER_API_KEY_MAIN_SHOP: pipeline.env.SELLER_API_KEY,
      LOG_LEVEL: 'info',
    });
    while (!worker.stderr().includes('worker started')) {
      if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const imported = await pipeline.cli(['import', await pipeline.csv('first.csv', catalogRows(10))]);

    // Before: "queued, but no running worker holds seller …'s key" while this worker was taking it.
    expect(imported.code).toBe(0);
    expect(imported.stderr).not.toMatch(/no running worker/);
    const runId = runIdOf(imported.stdout);
    while ((await statusOf(runId)).state !== 'done') {
      if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pipeline.products(MAIN_SELLER)).toHaveLength(10);
  });
});
