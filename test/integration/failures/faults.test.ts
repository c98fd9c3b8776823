import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../src/sandbox/index.js';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { mulberry32 } from './support/prng.js';
import { SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 200;

describe.each([
  ['an API that echoes the sku back', {}],
  ['an API that hides the sku (a lost create is found by its fields)', { hideFields: ['sku'] }],
] as Array<[string, SandboxOptions]>)(
  'with 10%% server faults and 5%% lost write answers, against %s',
  (_, api) => {
    const rig = useFailureRig(() => ({
      failRate: 0.1,
      dropResponseRate: 0.05,
      random: mulberry32(20_240_601),
      ...api,
    }));

    it('ends with the catalog equal to the source, no duplicate sku, and every row ok in the report', {
      timeout: 60_000,
    }, async () => {
      const rows = catalogRows(ROWS);
      const source = await rig.csv('catalog.csv', rows);
      const reportPath = join(rig.dir, 'report.csv');

      const result = await rig.cli(['run', source, '--report', reportPath]);

      const stats = rig.sandbox.stats();
      expect(stats.byStatus['500'], 'server faults injected').toBeGreaterThan(0);
      expect(stats.dropped, 'write answers lost').toBeGreaterThan(0);
      expect(result.code).toBe(0);
      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
      const report = parseCsv(await readFile(reportPath, 'utf8'));
      expect(report).toHaveLength(ROWS);
      expect(report.filter((line) => line.status !== 'ok')).toEqual([]);
      expect(report.map((line) => line.key)).toEqual(rows.map((row) => row.sku));
    });
  },
);
