import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { useOwnRedis } from '../support/own-redis.js';
import { MAIN_SELLER, type Pipeline, usePipeline } from '../support/pipeline.js';

// Past every compact encoding of a Redis hash or set (512 entries, 64-byte values): a real hash
// table, whose scan order changes with the hash seed Redis draws at every start (issue 16).
const MISSING = 650;
const LONG_NAME = 'A product the source no longer holds, named at length to pass 64 bytes';

/** Remote products the source does not hold; resolves to their ids. */
function seedStrangers(pipeline: Pipeline, count: number): string[] {
  return pipeline.sandbox.seedProducts(
    MAIN_SELLER,
    Array.from({ length: count }, (_, i) => ({ sku: `GONE-${i}`, name: `${LONG_NAME} #${i}`, price: 1 })),
  );
}

describe('the order of a report', () => {
  const pipeline = usePipeline();

  it('lists 650 missing products after the source rows, in ascending numeric product id', async () => {
    const ids = seedStrangers(pipeline, MISSING);
    const source = await pipeline.csv('catalog.csv', [{ sku: 'KEPT', name: 'Kept', price: '2' }]);

    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);

    expect(result.code).toBe(0);
    const report = parseCsv(await pipeline.readText('report.csv'));
    expect(report[0]).toMatchObject({ row: '1', key: 'KEPT', action: 'create' });
    const missing = report.slice(1);
    expect(missing.every((line) => line.action === 'missing' && line.row === '')).toBe(true);
    // Numeric, not text order: the sandbox numbers products 1, 2, …, so `9` comes before `10`.
    const ascending = [...ids].sort((a, b) => Number(a) - Number(b));
    expect(ascending.some((id, i) => i > 0 && id.length > (ascending[i - 1] as string).length)).toBe(true);
    expect(missing.map((line) => line.product_id)).toEqual(ascending);
  });

  it('writes the same file with `report <run-id>` as with `--report`', async () => {
    seedStrangers(pipeline, MISSING);
    const source = await pipeline.csv('catalog.csv', [{ sku: 'KEPT', name: 'Kept', price: '2' }]);
    await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'first.csv')]);
    const runId = JSON.parse((await pipeline.cli(['status', '--json'])).stdout).id as string;

    await pipeline.cli(['report', runId, '--out', join(pipeline.dir, 'again.csv')]);

    expect(await pipeline.readText('again.csv')).toBe(await pipeline.readText('first.csv'));
  });
});

describe('a report read again after Redis restarts', () => {
  const pipeline = usePipeline();
  const own = useOwnRedis();

  it('is the same file byte for byte (AOF on, a new hash seed)', { timeout: 60_000 }, async () => {
    seedStrangers(pipeline, MISSING);
    const { redis } = own;
    const env = { REDIS_URL: redis.url };
    const source = await pipeline.csv('catalog.csv', [{ sku: 'KEPT', name: 'Kept', price: '2' }]);
    const before = join(pipeline.dir, 'before.csv');
    expect((await pipeline.cli(['run', source, '--report', before], env)).code).toBe(0);
    const runId = JSON.parse((await pipeline.cli(['status', '--json'], env)).stdout).id as string;

    await redis.stop();
    await redis.start();
    const after = join(pipeline.dir, 'after.csv');
    expect((await pipeline.cli(['report', runId, '--out', after], env)).code).toBe(0);

    expect(await readFile(after, 'utf8')).toBe(await readFile(before, 'utf8'));
  });
});
