import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { removePrefix, TEST_REDIS_URL } from '../support/redis-prefix.js';

/** The test Redis' URL naming database `index` instead of its own. */
function withDatabase(index: number): string {
  const url = new URL(TEST_REDIS_URL);
  url.pathname = `/${index}`;
  url.searchParams.delete('db');
  return url.toString();
}

/** The test Redis' URL with its password masked, as the tool shows it. */
function shown(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The keys under `prefix` in database `index` of the test Redis (read only: SCAN). */
async function keysIn(index: number, prefix: string): Promise<string[]> {
  const redis = new Redis(withDatabase(index), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  } finally {
    redis.disconnect();
  }
}

/**
 * REDIS_URL naming a database the server does not have (`redis://…/99` on a Redis of 16): ioredis
 * logged the SELECT's refusal and went on in database 0. Every command that connects must end with
 * one line (exit 2) naming REDIS_URL's database index, and nothing may be written anywhere.
 */
describe('REDIS_URL naming a database index the server does not have', () => {
  const pipeline = usePipeline();
  let databases = 16;

  beforeAll(async () => {
    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      const [, count] = (await redis.config('GET', 'databases').catch(() => [])) as string[];
      if (count !== undefined) databases = Number(count);
    } finally {
      redis.disconnect();
    }
  });
  afterEach(async () => {
    // Only if the test failed: whatever it wrote, wherever.
    for (let index = 0; index < databases; index++) await removePrefix(pipeline.prefix, withDatabase(index));
  });

  it('run, import, status and worker each exit 2 with one line, and write nothing to any database', {
    timeout: 60_000,
  }, async () => {
    const url = withDatabase(databases);
    const source = await pipeline.csv('catalog.csv', catalogRows(5));
    const line =
      `catalog-sync: REDIS_URL names database ${databases}, which Redis at ${shown(url).replace(/\/$/, '')} does not have ` +
      `(ERR DB index is out of range): its databases are 0 to ${databases - 1} (its \`databases\` setting); ` +
      'name one of them in REDIS_URL, or none for database 0 (where runs of an earlier version with this URL went: their id maps and runs are there)\n';

    for (const args of [['run', source], ['import', source], ['status']]) {
      const result = await pipeline.cli(args, { REDIS_URL: url, LOG_LEVEL: 'warn' });
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr, args[0]).toBe(line);
    }
    const worker = pipeline.spawn(['worker'], { REDIS_URL: url, LOG_LEVEL: 'warn' });
    const ended = await Promise.race([
      worker.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
    ]);
    expect(ended, `worker still running; stderr: ${worker.stderr()}`).toEqual({ code: 2, signal: null });
    expect(worker.stderr()).toBe(line);

    for (let index = 0; index < databases; index++)
      expect(await keysIn(index, pipeline.prefix), `database ${index}`).toEqual([]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
