import { describe, expect, it } from 'vitest';
import { bySku, runReported, usePipeline } from '../support/pipeline.js';

/**
 * A price (after rounding to `--price-decimals`) or a quantity past what a JSON number carries
 * exactly (2^53 - 1 minor units) is not sent: the JSON number would be a value the seller did not
 * write. Its row is invalid, counted failed with the cell in `error`; the sandbox's own bound
 * (1e9) never sees it, so the refusal is this tool's, before any request.
 */
describe('a price or a quantity too large to send exactly is refused before any request', () => {
  const pipeline = usePipeline();

  it('99999999999999999999.995 (1e20 once rounded) and a quantity of 10^19 fail; 999999999.99 goes out', async () => {
    const { result, writes, lines } = await runReported(pipeline, [
      { sku: 'HUGE', name: 'Huge', price: '99999999999999999999.995', quantity: '1' },
      { sku: 'STOCK', name: 'Stock', price: '5.00', quantity: '10000000000000000000' },
      { sku: 'DEAR', name: 'Dear', price: '999999999.99', quantity: '9007199254740991' },
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(lines[0]).toMatchObject({
      row: '1',
      key: 'HUGE',
      action: 'invalid',
      status: 'failed',
      error:
        'price "99999999999999999999.995" is too large to send exactly (rounded to 2 decimals it is 100000000000000000000.00; at most 90071992547409.91)',
    });
    expect(lines[1]).toMatchObject({
      row: '2',
      key: 'STOCK',
      action: 'invalid',
      status: 'failed',
      error: 'quantity "10000000000000000000" is too large to send exactly (at most 9007199254740991)',
    });
    // Only DEAR is written: no request carries HUGE or STOCK.
    expect(writes.creates).toBe(1);
    const products = bySku(pipeline.products());
    expect([...products.keys()]).toEqual(['DEAR']);
    expect(products.get('DEAR')).toMatchObject({ price: 999999999.99, quantity: 9007199254740991 });
  });
});
