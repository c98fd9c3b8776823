import { describe, expect, it } from 'vitest';
import { usePipeline } from '../support/pipeline.js';

/**
 * docs/options.md, `--missing`: a value that would put a product gone from the source on sale, that
 * the API refuses, or that rewrites the key a run finds the product by is refused before the run:
 * one line naming the option and why, exit 2, no request (the parsing's own cases are unit tests:
 * test/unit/missing/missing-values.test.ts). The match field is the run's: known from `--match-by`
 * before the source is opened, or from the source's columns once its header is read.
 */
describe('--missing values that must never be written', () => {
  const pipeline = usePipeline();
  const ROWS = [
    { sku: 'A1', name: 'Mug', price: '1', EAN: '4006381333931' },
    { sku: 'A2', name: 'Cup', price: '2', EAN: '4006381333948' },
  ];

  it.each([
    [
      ['--missing', 'price=0'],
      '--missing: price=0 would put a product gone from the source on sale for nothing',
    ],
    [['--missing', 'quantity=-1'], '--missing: quantity=-1 is below 0'],
    [['--missing', 'status=bogus'], '--missing: status=bogus is not a status that takes a product off sale'],
    [['--missing', 'sku=GONE'], "--missing: sku is a product's key"],
    [
      ['--match-by', 'name', '--missing', 'quantity=0,name=Gone'],
      "--missing: name is the field this run matches products by (--match-by name): never a --missing field (a product given another key is lost to the source's row, and comes back as a second product)",
    ],
    // The EAN column is read as barcode: that is the field matched by, and refused as --missing's.
    [
      ['--match-by', 'ean', '--missing', 'barcode=0'],
      "--missing: barcode is the field this run matches products by: never a --missing field (a product given another key is lost to the source's row, and comes back as a second product)",
    ],
  ])('%j: one line, exit 2, nothing sent', async (flags, line) => {
    const result = await pipeline.cli(['run', await pipeline.csv('feed.csv', ROWS), ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).toContain(`catalog-sync: ${line}`);
    expect(pipeline.sandbox.stats().total).toBe(0);
    expect(pipeline.products()).toEqual([]);
  });
});
