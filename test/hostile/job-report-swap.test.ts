import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { runCli } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';

/**
 * A prober's `report: jobs/rd/…` with `jobs/rd` flipping between a folder of the project and a link
 * to a folder outside it got the report, its folders and empty files written out there. Here the
 * flip happens once, at a fixed point: after the run checked the report's path, before it is written.
 */
describe.runIf(existsSync('/proc/self/fd'))(
  "a folder on a job file's report's way swapped for a link out",
  () => {
    const pipeline = usePipeline();

    it('nothing is made outside the project, the run says so in one line, exit 2', async () => {
      const shop = join(pipeline.dir, 'a', 'shop');
      const victim = join(pipeline.dir, 'victim');
      await mkdir(join(shop, 'jobs', 'rd'), { recursive: true });
      await mkdir(victim);
      await writeCsv(shop, 'catalog.csv', catalogRows(2));
      const job = join(shop, 'jobs', 'w3.yml');
      await writeFile(job, 'source: catalog.csv\nreport: jobs/rd/n1/n2/out.csv\ndryRun: true\n', 'utf8');
      const swap = async () => {
        await rename(join(shop, 'jobs', 'rd'), join(shop, 'jobs', 'real'));
        await symlink('../../../victim', join(shop, 'jobs', 'rd'));
      };

      const result = await runCli(['run', '--job', job], pipeline.env, '', { beforeReportWrite: swap });

      expect(result.code).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^catalog-sync: --report: cannot write .*out\.csv: it leads outside the job's folders \(a folder on its way was changed\) \(the run ended as the summary says\)$/,
      );
      expect(await readdir(victim)).toEqual([]);
      // The folders the check made, in the project, hold no partial file.
      expect(await readdir(join(shop, 'jobs', 'real', 'n1', 'n2'))).toEqual([]);
    });
  },
);
