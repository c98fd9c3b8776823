import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../src/sources/stores/woocommerce/sample-store.js';
import { waitUntilDone } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';

const EVERY_SECOND = '* * * * * *';
const KEYS = { consumerKey: 'ck_scheduled_0123456789', consumerSecret: 'cs_scheduled_9876543210' };
const EU_ENV = { WOO_CONSUMER_KEY_EU: KEYS.consumerKey, WOO_CONSUMER_SECRET_EU: KEYS.consumerSecret };

/**
 * A scheduled import of a store is held to the worker's own environment: the job file's store must
 * be on a host the worker's CATALOG_SYNC_STORE_HOSTS lists before its credentials go there.
 */
describe("a scheduled job's store source", () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  afterEach(async () => {
    await woo?.close();
  });

  it('on a host the worker does not list: one log line, the store never asked; listed: imported', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });
    const jobsDir = join(pipeline.dir, 'jobs');
    await mkdir(jobsDir, { recursive: true });
    await writeFile(
      join(jobsDir, 'store.yml'),
      `source: ${woo.source}\nsourceCredentials: EU\nschedule: "${EVERY_SECOND}"\n`,
    );
    expect((await pipeline.cli(['schedule', '--jobs', jobsDir])).code).toBe(0);

    const refused = pipeline.spawn(['worker', '--jobs', jobsDir], { ...EU_ENV, LOG_LEVEL: 'info' });
    await refused.waitForStderr(
      /scheduled import store failed: store\.yml: source: host 127\.0\.0\.1:\d+ is not allowed: .*CATALOG_SYNC_STORE_HOSTS/,
    );
    expect(woo.requests).toHaveLength(0);
    expect(refused.stderr()).not.toMatch(/ck_scheduled|cs_scheduled/);
    refused.process.kill('SIGTERM');
    expect(await refused.exited).toEqual({ code: 0, signal: null });

    const allowed = pipeline.spawn(['worker', '--jobs', jobsDir], {
      ...EU_ENV,
      CATALOG_SYNC_STORE_HOSTS: `127.0.0.1:${woo.port}`,
      LOG_LEVEL: 'info',
    });
    const [, runId] = await allowed.waitForStderr(/scheduled import store queued as run (\S+?)"/);
    await waitUntilDone(pipeline.cli, runId as string, 20_000);
    expect(woo.requests.length).toBeGreaterThan(0);
    expect(pipeline.products().length).toBeGreaterThan(0);
    allowed.process.kill('SIGTERM');
    expect(await allowed.exited).toEqual({ code: 0, signal: null });
  });
});
