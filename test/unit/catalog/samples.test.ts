import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMapper } from '../../../src/catalog/index.js';
import type { MappedRow } from '../../../src/interfaces.js';
import { openSource } from '../../../src/sources/index.js';

const samples = join(import.meta.dirname, '../../../fixtures/samples');

async function mapSample(file: string): Promise<{ preset: string; rows: MappedRow[] }> {
  const source = await openSource(join(samples, file));
  const mapper = createMapper({
    columns: source.columns,
    ...(source.delimiter ? { delimiter: source.delimiter } : {}),
  });
  const rows: MappedRow[] = [];
  for await (const row of mapper.map(source.records)) rows.push(row);
  await source.close();
  return { preset: mapper.preset, rows };
}

describe('the sample catalog of each preset (fixtures/samples, for docs and demos)', () => {
  it.each([
    ['generic.csv', 'generic', 4, 0],
    ['shopify.csv', 'shopify', 4, 1],
    ['woocommerce.csv', 'woocommerce', 3, 1],
    ['etsy.csv', 'etsy', 2, 0],
    ['amazon.tsv', 'amazon', 3, 1],
    ['ebay.csv', 'ebay', 2, 0],
    ['magento.csv', 'magento', 2, 1],
    ['google-merchant.xml', 'google-merchant', 2, 0],
  ])(
    '%s is detected as %s and maps to %i upserts and %i merged rows, none invalid',
    async (file, preset, upserts, merged) => {
      const result = await mapSample(file);
      expect(result.preset).toBe(preset);
      expect(result.rows.filter((row) => row.kind === 'invalid')).toEqual([]);
      expect(result.rows.filter((row) => row.kind === 'upsert')).toHaveLength(upserts);
      expect(result.rows.filter((row) => row.kind === 'merged')).toHaveLength(merged);
    },
  );
});
