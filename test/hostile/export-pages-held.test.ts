import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { exportRecords } from '../../src/exports/export-file.js';
import { PRODUCTS_CSV } from '../../src/exports/product-csv.js';

/**
 * Issue 32, item 10, tried again: an endless `next` chain of 100 records of 1 KB a page made
 * `products export` die of heap exhaustion (4 GB, signal 6, 3 GB of scratch left behind) long
 * before the answer caps (4 GiB, 5,000,000 records) were reached. Each page was raced against one
 * abort promise that never settles, and each race left a reaction on it that kept that page. A page
 * written must be free to be collected while the export goes on (the CLI always passes a signal).
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Page = { fields: Record<string, unknown> }[];

describe('products export lets go of the pages it wrote', () => {
  for (const format of ['lines', 'csv'] as const) {
    it(`(${format}) a page written is collected while the read goes on`, async () => {
      const firstPages: WeakRef<Page>[] = [];
      let release = () => {};
      const go = new Promise<void>((resolve) => {
        release = resolve;
      });
      async function* pages(): AsyncGenerator<Page> {
        for (let n = 0; n < 20; n++) {
          const page: Page = Array.from({ length: 50 }, (_, i) => ({
            fields: { id: `${n}-${i}`, sku: `S${n}-${i}`, name: 'x'.repeat(200) },
          }));
          if (n < 10) firstPages.push(new WeakRef(page));
          yield page;
        }
        // The list has not ended yet when the first pages are looked at.
        await go;
      }
      const out = new Writable({ write: (_chunk, _encoding, done) => done() });
      const controller = new AbortController();
      const exported = exportRecords(pages(), PRODUCTS_CSV, {
        format,
        out,
        terminal: false,
        signal: controller.signal,
      });
      while (firstPages.length < 10) await new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
      }
      const held = firstPages.filter((page) => page.deref() !== undefined).length;
      release();
      await expect(exported).resolves.toBe(1000);
      // The page being written may still be held; the nine before it may not.
      expect(held).toBeLessThanOrEqual(1);
    });
  }
});
