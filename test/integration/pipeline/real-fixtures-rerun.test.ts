import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * Issue 17, "Done when": every real export runs against the sandbox, then again. No request is
 * refused (a row that cannot be created is known before any request), the re-run writes nothing,
 * and it exits 0 unless some row is invalid or failed.
 */
/** The platforms without a preset, read with the example mapping files shipped in fixtures/mappings. */
const MAPPINGS: Record<string, string> = {
  'ec-cube': 'ec-cube.yml',
  'shopware5-swagimportexport': 'shopware5.yml',
};

const FILES = readdirSync(REAL_FIXTURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => readdirSync(join(REAL_FIXTURES_DIR, dir.name)).map((file) => `${dir.name}/${file}`))
  .sort();

/** The report's data lines as [action, status] pairs. */
function actions(report: string): Array<[string, string]> {
  return report
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [, , action = '', , status = ''] = line.split(',');
      return [action, status];
    });
}

describe('a real export run twice', () => {
  const pipeline = usePipeline();

  it('covers every real export', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(26);
  });

  it.each(FILES)(
    '%s: no request refused; the re-run writes nothing and exits 0 unless a row failed',
    async (file) => {
      const dir = file.split('/')[0] ?? '';
      const mapping = MAPPINGS[dir];
      const args = [
        'run',
        join(REAL_FIXTURES_DIR, file),
        ...(mapping ? ['--mapping', join(projectRoot(), 'fixtures/mappings', mapping)] : []),
      ];

      const first = await pipeline.cli([...args, '--report', join(pipeline.dir, 'first.csv')]);
      const firstStats = pipeline.sandbox.stats();
      pipeline.sandbox.resetStats();
      const second = await pipeline.cli([...args, '--report', join(pipeline.dir, 'second.csv')]);
      const secondStats = pipeline.sandbox.stats();

      expect(first.stderr).toBe('');
      expect(firstStats.byStatus['400'] ?? 0).toBe(0);
      expect(secondStats.byStatus['400'] ?? 0).toBe(0);
      expect(secondStats.writesApplied).toBe(0);
      const rows = actions(await pipeline.readText('second.csv'));
      expect(rows.filter(([action]) => action === 'create' || action === 'update')).toEqual([]);
      const failing = rows.filter(([action, status]) => action === 'invalid' || status === 'failed');
      // The shipped mapping files read every row of their platform's export (their matchBy too).
      if (mapping) expect(failing).toEqual([]);
      expect(second.code).toBe(failing.length > 0 ? 1 : 0);
      expect(first.code).toBe(second.code);
    },
  );
});
