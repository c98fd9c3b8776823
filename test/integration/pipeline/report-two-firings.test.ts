import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLACED_ANOTHER } from '../../../src/cli/run-outcome.js';
import { gate } from '../../support/gate.js';
import { catalogRows, parseCsv, writeCsv } from '../support/catalog.js';
import { type CliResult, runCli, runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * Two cron firings of one job at once, on the first night (`report: reports/twice.csv`, not there
 * yet). The check of one firing could meet the other's probe at the report's path and exit 2
 * (`cannot be written (ENOENT)`); and the firing that wrote last replaced the other's report
 * unsaid, the rows that run created listed nowhere on disk. Here the writes come in a fixed order:
 * each firing's report is held until the other's run is over, then the second writes after the first.
 */
describe('two firings of one job at once, one report path', () => {
  const pipeline = usePipeline();

  it('both write their report; the one that replaced the other says so in one line', async () => {
    const shop = join(pipeline.dir, 'shop');
    await mkdir(join(shop, 'jobs'), { recursive: true });
    await mkdir(join(shop, 'reports'));
    await writeCsv(shop, 'catalog.csv', catalogRows(3));
    const job = join(shop, 'jobs', 'twice.yml');
    await writeFile(job, 'source: catalog.csv\nreport: reports/twice.csv\n', 'utf8');
    const firstAtReport = gate();
    const secondAtReport = gate();
    const fire = (seam: () => Promise<void>) =>
      runCli(['run', '--job', job], pipeline.env, '', { beforeReportWrite: seam });

    const first: Promise<CliResult> = fire(async () => {
      firstAtReport.open();
      await secondAtReport.promise;
    });
    const second = fire(async () => {
      secondAtReport.open();
      await firstAtReport.promise;
      await first;
    });
    const [one, two] = await Promise.all([first, second]);

    for (const result of [one, two]) {
      expect(result.stderr).not.toMatch(/cannot be written/);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`  report    ${join(shop, 'reports', 'twice.csv')}\n`);
    }
    expect(one.stdout).not.toContain(REPLACED_ANOTHER);
    expect(two.stdout).toContain(
      `  report    ${join(shop, 'reports', 'twice.csv')}\n            ${REPLACED_ANOTHER}\n`,
    );
    // The last report is whole and the second firing's, and no check or partial file is left.
    expect(await readdir(join(shop, 'reports'))).toEqual(['twice.csv']);
    const report = parseCsv(await pipeline.readText(join('shop', 'reports', 'twice.csv')));
    expect(report.map((line) => line.key)).toEqual(catalogRows(3).map((row) => row.sku));
    expect(pipeline.products()).toHaveLength(3);
    const again = await runCli(['report', runIdOf(two.stdout)], pipeline.env);
    expect(again.stdout).toBe(await pipeline.readText(join('shop', 'reports', 'twice.csv')));
  }, 60_000);
});
