import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows, parseCsv, writeCsv } from '../integration/support/catalog.js';
import { type CliResult, runCli, runIdOf } from '../integration/support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { API_KEY, BASE_PATH, ORIGIN } from './seller-api-helpers.js';

// `run` in this process against a nock double of the API (real Redis under a prefix of its own):
// every request a whole run sends is counted, through every layer that could send it again (the
// client, the snapshot's lock, BullMQ's job attempts). Before one layer owned each request, a list
// page that always answered 503 was tried 25 times for a one-chunk run and 110 times for five
// (CATALOG_SYNC_RETRIES=4: 5 tries per read, one read per job attempt and per waiting chunk).

/** 450 rows: five chunk jobs, more than one worker slot, all needing the same product list. */
const ROWS = 450;

beforeAll(() => nock.disableNetConnect());
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

let prefix = '';
let dir = '';
beforeEach(async () => {
  prefix = uniquePrefix();
  dir = await mkdtemp(join(tmpdir(), 'catalog-sync-retry-layer-'));
});
afterEach(async () => {
  nock.cleanAll();
  await removePrefix(prefix);
  await rm(dir, { recursive: true, force: true });
});

async function run(extraEnv: NodeJS.ProcessEnv = {}, rows = ROWS): Promise<CliResult & { runId: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    SELLER_API_BASE_URL: ORIGIN + BASE_PATH,
    SELLER_API_KEY: API_KEY,
    REDIS_URL: TEST_REDIS_URL,
    CATALOG_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    // Backoff in milliseconds: the count of tries is the point, not the waits.
    CATALOG_SYNC_RETRY_BASE_MS: '1',
    ...extraEnv,
  };
  const source = await writeCsv(dir, 'catalog.csv', catalogRows(rows));
  const result = await runCli(['run', source], env);
  return { ...result, runId: runIdOf(result.stdout + result.stderr) };
}

async function reportOf(runId: string): Promise<Record<string, string>[]> {
  const result = await runCli(['report', runId], {
    PATH: process.env.PATH,
    REDIS_URL: TEST_REDIS_URL,
    CATALOG_SYNC_PREFIX: prefix,
  });
  return parseCsv(result.stdout);
}

/** Page 1 of the product list answers with a link to page 2; page 2 answers `status`, always. */
function listWithSecondPage(status: number): { page1: () => number; page2: () => number } {
  let page1 = 0;
  let page2 = 0;
  nock(ORIGIN)
    .get(`${BASE_PATH}/products`)
    .query((query) => query.page === undefined)
    .reply(() => {
      page1++;
      return [200, { data: [], meta: { page: 1, last_page: 2 } }];
    })
    .persist();
  nock(ORIGIN)
    .get(`${BASE_PATH}/products`)
    .query({ page: '2' })
    .reply(() => {
      page2++;
      return [status, { message: 'not now' }];
    })
    .persist();
  return { page1: () => page1, page2: () => page2 };
}

describe('when a page of the product list always answers 503', () => {
  it.each([
    [0, 1],
    [2, 3],
    [4, 5],
  ])(
    'with CATALOG_SYNC_RETRIES=%i, asks for that page %i time(s), then fails every row with the reason',
    async (retries, tries) => {
      const list = listWithSecondPage(503);

      const result = await run({ CATALOG_SYNC_RETRIES: String(retries) });

      expect(list.page2()).toBe(tries);
      expect(list.page1()).toBe(1);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `rows      ${ROWS}: 0 created, 0 updated, 0 unchanged, 0 invalid, ${ROWS} failed`,
      );
      expect(result.stdout).toContain(`requests  ${tries + 1} (0 writes)`);
      const report = await reportOf(result.runId);
      expect(report).toHaveLength(ROWS);
      expect(
        report.every(
          (line) =>
            line.error ===
            "the seller's products could not be read: GET /products?page=2: 503 Service Unavailable: not now",
        ),
      ).toBe(true);
    },
  );
});

describe('when a create’s answer is lost and the look-up cannot read the product list', () => {
  it('sends the POST once, reads the list retries+1 times, and fails the row rather than the job', async () => {
    let reads = 0;
    let creates = 0;
    nock(ORIGIN)
      .get(`${BASE_PATH}/products`)
      .reply(() => {
        reads++;
        return [200, { data: [] }];
      });
    nock(ORIGIN)
      .get(`${BASE_PATH}/products`)
      .reply(() => {
        reads++;
        return [503, 'busy'];
      })
      .persist();
    nock(ORIGIN)
      .post(`${BASE_PATH}/products`)
      .reply(() => {
        creates++;
        return [503, 'busy'];
      })
      .persist();

    const result = await run({ CATALOG_SYNC_RETRIES: '2' }, 1);

    expect(creates).toBe(1);
    // The snapshot's read, then one look-up of 1 + 2 tries; BullMQ does not run the chunk again.
    expect(reads).toBe(1 + 3);
    expect(result.code).toBe(1);
    const [line] = await reportOf(result.runId);
    expect(line).toMatchObject({ status: 'failed', error: 'GET /products: 503 Service Unavailable: busy' });
  });
});

describe('a request whose answer cannot change by asking again', () => {
  it.each([400, 404])('a list page answering %i is tried once, and every row fails', async (status) => {
    const list = listWithSecondPage(status);

    const result = await run({ CATALOG_SYNC_RETRIES: '4' });

    expect(list.page2()).toBe(1);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${ROWS} failed`);
  });

  it('a list page answering 401 is tried once, and the run stops for the key (exit 3)', async () => {
    const list = listWithSecondPage(401);

    const result = await run({ CATALOG_SYNC_RETRIES: '4' });

    expect(list.page2()).toBe(1);
    expect(result.code).toBe(3);
  });

  it('a create answering 400 is sent once per row', async () => {
    nock(ORIGIN).get(`${BASE_PATH}/products`).reply(200, { data: [] });
    let creates = 0;
    nock(ORIGIN)
      .post(`${BASE_PATH}/products`)
      .reply(() => {
        creates++;
        return [400, { message: 'price must be a number' }];
      })
      .persist();

    const result = await run({ CATALOG_SYNC_RETRIES: '4' }, 5);

    expect(creates).toBe(5);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('rows      5: 0 created, 0 updated, 0 unchanged, 0 invalid, 5 failed');
  });
});

/** What the client's connect timer rejects with when no connection is made in time (http-requester.ts). */
const connectTimeout = () =>
  Object.assign(new Error('Connect Timeout Error (attempted address: api.example.com, timeout: 10000ms)'), {
    code: 'UND_ERR_CONNECT_TIMEOUT',
  });
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 203.0.113.7:443'), { code: 'ECONNREFUSED' });

/** Every `method` to /products fails with `error` before reaching the API; resolves to how many were tried. */
function neverConnecting(method: 'get' | 'post', error: () => Error): () => number {
  let tries = 0;
  nock(ORIGIN)
    [method](`${BASE_PATH}/products`)
    .replyWithError(error())
    .on('request', () => {
      tries++;
    })
    .persist();
  return () => tries;
}

describe('a connection not made within the connect timeout (10 s a try)', () => {
  it('is not tried again: the list read is asked once, and `run` exits 6 naming the cause', async () => {
    const reads = neverConnecting('get', connectTimeout);

    const result = await run({ CATALOG_SYNC_RETRIES: '4' }, 5);

    expect(reads()).toBe(1);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(
      `cannot reach ${ORIGIN}${BASE_PATH}: connection timed out (UND_ERR_CONNECT_TIMEOUT)`,
    );
  });

  it('nor is a create: each row sent is sent once, then the seller pauses (exit 6), the rows kept', async () => {
    nock(ORIGIN).get(`${BASE_PATH}/products`).reply(200, { data: [] });
    const creates = neverConnecting('post', connectTimeout);

    const result = await run({ CATALOG_SYNC_RETRIES: '4' }, 1);

    expect(creates()).toBe(1);
    expect(result.code).toBe(6);
    const status = await runCli(['status', result.runId, '--json'], {
      PATH: process.env.PATH,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
    });
    expect(JSON.parse(status.stdout)).toMatchObject({ settled: 0, counts: { failed: 0 } });
  });

  it('while a refused connection, told at once, is tried the policy’s number of times', async () => {
    const reads = neverConnecting('get', refused);

    const result = await run({ CATALOG_SYNC_RETRIES: '4' }, 5);

    expect(reads()).toBe(5);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('connection refused (ECONNREFUSED)');
  });
});
