import { afterAll, describe, expect, it } from 'vitest';
import { openSource } from '../../../src/sources/index.js';
import { tempFolder } from './helpers.js';

const folder = tempFolder();
afterAll(() => folder.remove());

function csv(rows: number): string {
  const lines = ['sku,name,price'];
  for (let i = 1; i <= rows; i++)
    lines.push(`SKU-${String(i).padStart(6, '0')},Product number ${i},${i % 90}.50`);
  return `${lines.join('\n')}\n`;
}

describe('how many rows a source holds, before it is read (Redis sizing, issue 18)', () => {
  it('counts the rows of a source that fits in the first 64 KiB', async () => {
    const source = await openSource(folder.write('small.csv', csv(120)));
    // Every line is 42 bytes or so: a queued row carries about that much of source values.
    expect(source.rowEstimate).toEqual({ rows: 120, how: 'counted', bytesPerRow: expect.any(Number) });
    expect(source.rowEstimate?.bytesPerRow).toBeGreaterThan(30);
    expect(source.rowEstimate?.bytesPerRow).toBeLessThan(50);
    await source.close();
  });

  it("estimates a bigger file's from its size at the first 64 KiB's bytes per line, and says so", async () => {
    const source = await openSource(folder.write('big.csv', csv(20_000)));
    expect(source.rowEstimate?.rows).toBeGreaterThan(19_000);
    expect(source.rowEstimate?.rows).toBeLessThan(21_000);
    expect(source.rowEstimate?.how).toMatch(/^estimated from the source's size: [\d,]+ bytes at \d+ a line$/);
    await source.close();
  });

  it('knows nothing of standard input', async () => {
    const { PassThrough } = await import('node:stream');
    const stdin = new PassThrough();
    stdin.end(csv(20_000));
    const source = await openSource('-', { stdin });
    expect(source.rowEstimate).toBeNull();
    await source.close();
  });
});
