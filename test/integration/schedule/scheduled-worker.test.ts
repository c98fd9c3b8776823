import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogRows, priceNumber, writeCsv } from '../support/catalog.js';
import { waitUntilDone } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const ROWS = 40;
/** Six fields, seconds first: fires every second, through the same cron path as a nightly job. */
const EVERY_SECOND = '* * * * * *';

/** Matches once `line` has been written three times. */
function thrice(line: RegExp): RegExp {
  return new RegExp(`(?:${line.source}[\\s\\S]*){3}`);
}

describe('a `worker` serving scheduled imports', () => {
  const pipeline = usePipeline();
  let jobsDir: string;
  const job = (name: string, text: string) => writeFile(join(jobsDir, `${name}.yml`), text, 'utf8');
  const schedule = () => pipeline.cli(['schedule', '--jobs', jobsDir]);

  beforeEach(async () => {
    jobsDir = join(pipeline.dir, 'jobs');
    await mkdir(jobsDir);
  });

  const waitForRun = (runId: string) => waitUntilDone(pipeline.cli, runId, 20_000);

  it("imports the job's source when its schedule fires, and the sandbox ends holding the catalog", async () => {
    const rows = catalogRows(ROWS);
    await pipeline.csv('catalog.csv', rows);
    // Relative to the folder that holds jobs/, as for `import --job`.
    await job('every-second', `source: catalog.csv\nschedule: "${EVERY_SECOND}"\n`);
    expect((await schedule()).code).toBe(0);
    const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });

    const [, runId] = await worker.waitForStderr(/scheduled import every-second queued as run (\S+?)"/);
    const status = await waitForRun(runId as string);

    expect(status).toMatchObject({
      source: join(pipeline.dir, 'catalog.csv'),
      total: ROWS,
      counts: { created: ROWS, failed: 0, invalid: 0 },
    });
    const products = bySku(pipeline.products());
    expect(products.size).toBe(ROWS);
    for (const row of rows) {
      expect(products.get(row.sku)).toEqual({ sku: row.sku, name: row.name, price: priceNumber(row.price) });
    }

    await job('every-second', 'source: catalog.csv\n');
    const removed = await schedule();
    expect(removed.stdout).toMatch(/^every-second .* removed$/m);
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });

  it('reads the job file anew at each firing, so an edit takes effect without `schedule`', async () => {
    await pipeline.csv('old.csv', catalogRows(3));
    await pipeline.csv('new.csv', catalogRows(7, 100));
    await job('edited', `source: old.csv\nschedule: "${EVERY_SECOND}"\n`);
    expect((await schedule()).code).toBe(0);
    await job('edited', `source: new.csv\nschedule: "${EVERY_SECOND}"\n`);
    const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });

    const [, runId] = await worker.waitForStderr(/scheduled import edited queued as run (\S+?)"/);

    expect(await waitForRun(runId as string)).toMatchObject({
      source: join(pipeline.dir, 'new.csv'),
      counts: { created: 7 },
    });
    expect([...bySku(pipeline.products()).keys()].sort()).toEqual(catalogRows(7, 100).map((row) => row.sku));
  });

  it('logs one line naming the job and the unset key variable, and goes on serving the other jobs', async () => {
    const unsetKey = `SELLER_API_KEY_CS_TEST_UNSET_${pipeline.prefix.replace(/-/g, '_').toUpperCase()}`;
    await pipeline.csv('catalog.csv', catalogRows(5));
    await job('other-seller', `source: catalog.csv\nkeyEnv: ${unsetKey}\nschedule: "${EVERY_SECOND}"\n`);
    await job('main-seller', `source: catalog.csv\nschedule: "${EVERY_SECOND}"\n`);
    expect((await schedule()).code).toBe(0);
    const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });

    const failure = new RegExp(`^.*scheduled import other-seller failed: ${unsetKey} is not set.*$`, 'gm');
    await worker.waitForStderr(failure);
    const [, runId] = await worker.waitForStderr(/scheduled import main-seller queued as run (\S+?)"/);
    await waitForRun(runId as string);

    expect(worker.process.exitCode).toBeNull();
    const lines = worker.stderr().match(failure) ?? [];
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: 50, job: 'other-seller' });
    expect(worker.stderr()).not.toMatch(/\n\s+at /);
    expect(pipeline.products()).toHaveLength(5);
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });

  /** A scheduler written straight into Redis, as anyone who can write to that Redis could. */
  const plantScheduler = (id: string, data: Record<string, unknown>) =>
    withRedis(async (connection) => {
      const queue = new Queue('scheduled-imports', { connection, prefix: pipeline.prefix });
      try {
        await queue.upsertJobScheduler(
          id,
          { pattern: EVERY_SECOND, tz: 'UTC' },
          { name: 'scheduled-import', data, opts: { removeOnComplete: 50, removeOnFail: 50 } },
        );
      } finally {
        await queue.close();
      }
    });

  it('reads the job file from its own --jobs folder, never from a folder named in Redis', async () => {
    const rows = catalogRows(3);
    await pipeline.csv('catalog.csv', rows);
    await job('nightly', `source: catalog.csv\nschedule: "${EVERY_SECOND}"\n`);
    // Another folder with a job of the same name, whose source is not the operator's.
    const elsewhere = join(pipeline.dir, 'elsewhere');
    await mkdir(join(elsewhere, 'jobs'), { recursive: true });
    await writeCsv(elsewhere, 'planted.csv', catalogRows(4, 900));
    await writeFile(join(elsewhere, 'jobs', 'nightly.yml'), 'source: planted.csv\n', 'utf8');
    await plantScheduler('job:nightly', { job: 'nightly', jobsDir: join(elsewhere, 'jobs') });
    const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });

    const [, runId] = await worker.waitForStderr(/scheduled import nightly queued as run (\S+?)"/);

    expect(await waitForRun(runId as string)).toMatchObject({
      source: join(pipeline.dir, 'catalog.csv'),
      counts: { created: 3 },
    });
    expect([...bySku(pipeline.products()).keys()].sort()).toEqual(rows.map((row) => row.sku));
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses a job name from Redis that is not [A-Za-z0-9._-]+ (a path, escapes): one line, nothing sent', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    // A real job file one folder up: `../outside` would find it if names were joined as given.
    await writeFile(join(pipeline.dir, 'outside.yml'), `source: catalog.csv\nschedule: "${EVERY_SECOND}"\n`);
    await plantScheduler('job:up', { job: '../outside' });
    await plantScheduler('job:escapes', { job: 'x\u001b]0;evil\u0007\u001b[2J\u009b' });
    const worker = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });

    // pino's JSON: `"` as `\"`; the escaped name's `\x1b` (four visible characters) as `\\x1b`.
    // Three firings of each (every second), each refused.
    await worker.waitForStderr(thrice(/scheduled import refused: the job name \\"\.\.\/outside\\"/));
    await worker.waitForStderr(thrice(/scheduled import refused: the job name \\"x\\\\x1b\]0;evil\\\\x07/));

    expect(pipeline.sandbox.stats().total).toBe(0);
    expect((await pipeline.cli(['status'])).stderr).toContain('no run yet');
    expect(worker.stderr()).not.toMatch(/[\x1b\x07\x9b]/);
    expect(worker.stderr()).not.toMatch(/\n\s+at /);
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses at start a --jobs folder that is not there (as schedule does), rather than saying the job file is gone', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    await job('nightly', `source: catalog.csv\nschedule: "${EVERY_SECOND}"\n`);
    expect((await schedule()).code).toBe(0);
    const typo = join(pipeline.dir, 'jbos');
    const worker = pipeline.spawn(['worker', '--jobs', typo], { LOG_LEVEL: 'info' });

    expect(await worker.exited).toEqual({ code: 2, signal: null });
    expect(worker.stderr()).toBe(`catalog-sync: --jobs ${typo}: no such folder (${typo})\n`);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
