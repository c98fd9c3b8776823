import { chmod, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';

const OTHER_KEY = 'sk_test_refused_other';

/**
 * Found by a prober: a worker started without CATALOG_SYNC_API_HOSTS (or SELLER_API_BASE_URL)
 * allowing its sellers' API host logged nothing of them, while every `import` waited, then said no
 * running worker holds the seller's key. The worker says it now: whose key it holds, that it does
 * not serve them, and how to allow their host.
 */
describe('a worker holding the keys of sellers whose API host it may not send them to', () => {
  const pipeline = usePipeline();

  /** Writes the keys file as docs/operations.md asks: a new file of mode 600, renamed into place. */
  async function writeKeys(path: string, lines: string): Promise<void> {
    await writeFile(`${path}.new`, lines);
    await chmod(`${path}.new`, 0o600);
    await rename(`${path}.new`, path);
  }

  /** The seller registered by an import, and how the worker should name it and its host. */
  async function registered() {
    const imported = await pipeline.cli(['import', await pipeline.csv('feed.csv', catalogRows(3))]);
    expect(imported.code, imported.stderr).toBe(0);
    const ref = sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY);
    const host = new URL(pipeline.sandbox.baseUrl);
    return { ref, host: `${host.hostname}:${host.port}` };
  }

  const refusedLine = (ref: string, host: string) =>
    `this worker holds the key of seller ${ref} but does not serve it: its API host ${host} is not allowed here; add ${host} to CATALOG_SYNC_API_HOSTS (a comma list) or set SELLER_API_BASE_URL to that API in this worker's environment, and restart it`;

  it('says so at its start, once, naming the seller, the host and how to allow it', {
    timeout: 60_000,
  }, async () => {
    const { ref, host } = await registered();

    const worker = pipeline.spawn(['worker'], { SELLER_API_BASE_URL: '', LOG_LEVEL: 'info' });
    await worker.waitForStderr(/worker started/);

    const said = worker.stderr().split(refusedLine(ref, host)).length - 1;
    expect(said, worker.stderr()).toBe(1);
    expect(worker.stderr()).not.toContain(MAIN_KEY);
  });

  it('says so when its keys file is read again with such a key in it', { timeout: 60_000 }, async () => {
    const { ref, host } = await registered();
    const file = join(pipeline.dir, 'keys.env');
    await writeKeys(file, `SELLER_API_KEY_OTHER=${OTHER_KEY}\n`);
    const worker = pipeline.spawn(['worker', '--keys-file', file], {
      SELLER_API_BASE_URL: '',
      SELLER_API_KEY: '',
      LOG_LEVEL: 'info',
    });
    await worker.waitForStderr(/worker started/);
    expect(worker.stderr()).not.toContain('does not serve');

    await writeKeys(file, `SELLER_API_KEY_OTHER=${OTHER_KEY}\nSELLER_API_KEY_MAIN=${MAIN_KEY}\n`);

    await until('the line of the key read again', () => worker.stderr().includes(refusedLine(ref, host)));
    expect(worker.stderr()).not.toContain(MAIN_KEY);
  });
});
