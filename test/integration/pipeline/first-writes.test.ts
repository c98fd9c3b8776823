import { describe, expect, it } from 'vitest';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/**
 * `--first` (issue 14): a run that needs more than the day's remaining quota sends its updates of
 * the `--first` fields (default price,quantity) first, then other updates, then creates.
 */
describe('a run over the day’s quota sends its most valuable writes first', () => {
  const pipeline = usePipeline();

  /**
   * 10 creates (rows 1–10), 5 name updates (rows 11–15), 5 price updates (rows 16–20); with
   * `pricesFirst` the price updates are rows 11–15 and the name updates rows 16–20.
   */
  async function catalogOfTwenty(pricesFirst = false) {
    const names = Array.from({ length: 5 }, (_, i) => ({
      sku: `N${i + 1}`,
      name: `Name ${i + 1}`,
      price: 10,
    }));
    const prices = Array.from({ length: 5 }, (_, i) => ({
      sku: `P${i + 1}`,
      name: `Priced ${i + 1}`,
      price: 20,
    }));
    const ids = pipeline.sandbox.seedProducts(MAIN_SELLER, [...names, ...prices]);
    const skuOf = new Map(ids.map((id, i) => [id, [...names, ...prices][i]?.sku]));
    const renamed = names.map((row) => ({ sku: row.sku, name: `${row.name} renamed`, price: '10' }));
    const repriced = prices.map((row) => ({ sku: row.sku, name: row.name, price: '25' }));
    const source = await pipeline.csv('catalog.csv', [
      ...Array.from({ length: 10 }, (_, i) => ({ sku: `NEW${i + 1}`, name: `New ${i + 1}`, price: '5' })),
      ...(pricesFirst ? [...repriced, ...renamed] : [...renamed, ...repriced]),
    ]);
    return { source, skuOf };
  }

  /**
   * What the reset of the quota day does: the seller's pause, its queue's rate limit and the day's
   * request counter expire (`--daily-budget` counts a real day; the test does not wait for it).
   */
  async function passTheDailyReset() {
    await withRedis(async (redis) => {
      const keys = await redis.keys(`${pipeline.prefix}:*`);
      const expiring = keys.filter((key) => /:paused-until$|:limiter$|:used:\d+$/.test(key));
      expect(expiring.length).toBeGreaterThanOrEqual(3);
      await redis.del(...expiring);
    });
  }

  /** The writes the sandbox took, in order: `PUT P1`, `POST NEW3`… */
  function writesSent(skuOf: Map<string, string | undefined>): string[] {
    return pipeline.sandbox
      .requests()
      .filter(
        (request) => request.method !== 'GET' && typeof request.status === 'number' && request.status < 300,
      )
      .map((request) =>
        request.method === 'PUT'
          ? `PUT ${skuOf.get(String(request.query.id))}`
          : `POST ${(request.body as { sku?: string }).sku}`,
      );
  }

  it('with --daily-budget 8 on a fresh day: the 5 price updates, then name updates, no create', async () => {
    const { source, skuOf } = await catalogOfTwenty();

    const run = await pipeline.cli(['run', source, '--daily-budget', '8', '--concurrency', '1', '--no-wait']);

    expect(run.code).toBe(4);
    expect(run.stdout).toContain(
      'plan      up to 21 requests, 8 a day (--daily-budget), 8 left today: 3 days',
    );
    // One list read, then 7 writes: what the day has left.
    expect(writesSent(skuOf)).toEqual(['PUT P1', 'PUT P2', 'PUT P3', 'PUT P4', 'PUT P5', 'PUT N1', 'PUT N2']);

    // The next quota day: the rest of the name updates, then the creates.
    await passTheDailyReset();
    const nextDay = await pipeline.cli([
      'run',
      source,
      '--daily-budget',
      '8',
      '--concurrency',
      '1',
      '--no-wait',
    ]);
    expect(nextDay.code).toBe(4);
    const writes = writesSent(skuOf);
    expect(writes.slice(7, 10).sort()).toEqual(['PUT N3', 'PUT N4', 'PUT N5']);
    expect(writes.slice(10)).toHaveLength(5);
    expect(writes.slice(10).every((write) => write.startsWith('POST NEW'))).toBe(true);
  });

  it('--first name puts the name updates first', async () => {
    const { source, skuOf } = await catalogOfTwenty(true);

    await pipeline.cli([
      'run',
      source,
      '--daily-budget',
      '8',
      '--first',
      'name',
      '--concurrency',
      '1',
      '--no-wait',
    ]);

    expect(writesSent(skuOf)).toEqual(['PUT N1', 'PUT N2', 'PUT N3', 'PUT N4', 'PUT N5', 'PUT P1', 'PUT P2']);
  });

  it('a run that fits in the day is not planned first: every write goes out in one day', async () => {
    const { source, skuOf } = await catalogOfTwenty();

    const run = await pipeline.cli(['run', source, '--daily-budget', '100']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'plan      up to 21 requests, 100 a day (--daily-budget), 100 left today: 1 day',
    );
    expect(writesSent(skuOf)).toHaveLength(20);
  });
});
