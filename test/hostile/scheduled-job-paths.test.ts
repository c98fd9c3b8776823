import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { waitUntilDone } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';

const EVERY_SECOND = '* * * * * *';

/**
 * Issue 32, points 1 and 2, for scheduled imports: the worker reads a fired job's file as
 * `import --job` does, so its paths are held to the project folder and the worker's --data-dir.
 */
describe("a scheduled job's paths", () => {
  const pipeline = usePipeline();
  const SECRET = 'sk_live_Scheduled1234567890';

  it('a source outside the project, or the keys file, is one log line; the worker goes on, --data-dir allows', async () => {
    const shop = join(pipeline.dir, 'shop');
    const jobsDir = join(shop, 'jobs');
    await mkdir(jobsDir, { recursive: true });
    await writeCsv(pipeline.dir, 'outside.csv', catalogRows(3));
    await writeFile(join(shop, 'keys.env'), `SELLER_API_KEY_ACME=${SECRET}\n`, 'utf8');
    await chmod(join(shop, 'keys.env'), 0o600);
    await writeFile(join(jobsDir, 'escaping.yml'), `source: ../outside.csv\nschedule: "${EVERY_SECOND}"\n`);
    await writeFile(join(jobsDir, 'keys.yml'), `source: keys.env\nschedule: "${EVERY_SECOND}"\n`);
    expect((await pipeline.cli(['schedule', '--jobs', jobsDir])).code).toBe(0);

    const confined = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });
    await confined.waitForStderr(
      /scheduled import escaping failed: escaping\.yml: source: \.\.\/outside\.csv leads outside the job's folders/,
    );
    await confined.waitForStderr(
      /scheduled import keys failed: keys\.yml: source: keys\.env is a private file/,
    );
    expect(confined.stderr()).not.toContain('sk_live');
    expect(confined.stderr()).not.toMatch(/queued as run/);
    expect(pipeline.products()).toHaveLength(0);
    confined.process.kill('SIGTERM');
    expect(await confined.exited).toEqual({ code: 0, signal: null });

    const allowed = pipeline.spawn(['worker', '--jobs', jobsDir, '--data-dir', pipeline.dir], {
      LOG_LEVEL: 'info',
    });
    const [, runId] = await allowed.waitForStderr(/scheduled import escaping queued as run (\S+?)"/);
    await waitUntilDone(pipeline.cli, runId as string, 20_000);
    expect(pipeline.products()).toHaveLength(3);
    expect(allowed.stderr()).not.toContain('sk_live');
    allowed.process.kill('SIGTERM');
    expect(await allowed.exited).toEqual({ code: 0, signal: null });
  });
});
