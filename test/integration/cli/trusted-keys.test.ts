import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import type { RunSpec } from '../../../src/runs/run-store.js';
import { sellerQueueName, sellerRef } from '../../../src/sellers/seller-ref.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** A value no message may ever show: if it leaks, a test sees it. */
const DB_SECRET = 'db-secret-hunter2';

/** The one line of a refusal: exit 2, nothing else on stderr, nothing on stdout. */
function expectOneLineRefusal(result: { code: number | null; stdout: string; stderr: string }): string {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain(DB_SECRET);
  expect(result.stderr).not.toContain(MAIN_KEY);
  return lines[0] as string;
}

describe('keys go only where the operator said', () => {
  const pipeline = usePipeline();

  async function job(name: string, text: string): Promise<string> {
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const path = join(pipeline.dir, 'jobs', `${name}.yml`);
    await writeFile(path, text, 'utf8');
    return path;
  }

  it('a job file with keyEnv: DB_PASSWORD: one line naming it and how to allow it, exit 2, no request', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    const path = await job('nightly', 'source: catalog.csv\nkeyEnv: DB_PASSWORD\n');

    // The variable holds a key that works: were it read, the sandbox would answer.
    const result = await pipeline.cli(['run', '--job', path], { DB_PASSWORD: MAIN_KEY });

    const line = expectOneLineRefusal(result);
    expect(line).toMatch(/^catalog-sync: nightly\.yml: keyEnv: DB_PASSWORD is not a key variable/);
    expect(line).toContain('CATALOG_SYNC_KEY_ENVS');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('the same from the command line (--key-env), through the built CLI, never printing the value', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const child = pipeline.spawn(['run', source, '--key-env', 'DB_PASSWORD'], { DB_PASSWORD: DB_SECRET });

    const { code } = await child.exited;

    const line = expectOneLineRefusal({ code, stdout: child.stdout(), stderr: child.stderr() });
    expect(line).toMatch(/^catalog-sync: --key-env: DB_PASSWORD is not a key variable/);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a variable listed in CATALOG_SYNC_KEY_ENVS (or named SELLER_API_KEY_*) is read', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    const listed = await job('listed', 'source: catalog.csv\nkeyEnv: SHOP_KEY\n');
    const prefixed = await job('prefixed', 'source: catalog.csv\nkeyEnv: SELLER_API_KEY_SHOP\n');

    const first = await pipeline.cli(['run', '--job', listed], {
      SHOP_KEY: MAIN_KEY,
      CATALOG_SYNC_KEY_ENVS: 'OTHER_KEY,SHOP_KEY',
    });
    const second = await pipeline.cli(['run', '--job', prefixed], { SELLER_API_KEY_SHOP: MAIN_KEY });

    expect([first.code, second.code]).toEqual([0, 0]);
    expect(pipeline.products()).toHaveLength(3);
  });

  it("a job file's baseUrl on another host: one line naming the host, exit 2, no request", async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    // The sandbox itself, but not where SELLER_API_BASE_URL points: were the file obeyed, it would answer.
    const sandboxUrl = pipeline.sandbox.baseUrl;
    const path = await job('moved', `source: catalog.csv\nbaseUrl: ${sandboxUrl}\n`);
    const elsewhere = { SELLER_API_BASE_URL: 'http://127.0.0.2:9/api/v1' };

    const refused = await pipeline.cli(['run', '--job', path], elsewhere);

    const line = expectOneLineRefusal(refused);
    expect(line).toMatch(
      new RegExp(`^catalog-sync: moved\\.yml: baseUrl: host ${new URL(sandboxUrl).host} is not allowed`),
    );
    expect(line).toContain('CATALOG_SYNC_API_HOSTS');
    expect(pipeline.sandbox.stats().total).toBe(0);

    // The operator lifts it by naming the host; the command line is trusted as it is.
    const listed = await pipeline.cli(['run', '--job', path], {
      ...elsewhere,
      CATALOG_SYNC_API_HOSTS: new URL(sandboxUrl).host,
    });
    expect(listed.code).toBe(0);
    const flagged = await pipeline.cli(['run', '--job', path, '--base-url', sandboxUrl], elsewhere);
    expect(flagged.code).toBe(0);
    expect(pipeline.products()).toHaveLength(3);
  });

  it.each([
    ['its keyEnv is DB_PASSWORD', (spec: RunSpec): RunSpec => ({ ...spec, keyEnv: 'DB_PASSWORD' })],
    [
      'its baseUrl is on a host the worker does not allow',
      (spec: RunSpec): RunSpec => ({ ...spec, baseUrl: spec.baseUrl.replace('127.0.0.1', 'localhost') }),
    ],
  ])('a worker that finds in Redis a run where %s logs one line and sends nothing', async (_case, tamper) => {
    const imported = await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(5))]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    expect(pipeline.sandbox.stats().total).toBe(0);
    // Whoever can write to Redis rewrites the run's record.
    await withRedis(async (redis) => {
      const key = new RedisKeys(pipeline.prefix).run(runId);
      const spec = JSON.parse((await redis.hget(key, 'spec')) as string) as RunSpec;
      await redis.hset(key, 'spec', JSON.stringify(tamper(spec)));
    });

    // DB_PASSWORD holds the seller's key, and the worker's loopback host is the sandbox's.
    const worker = pipeline.spawn(['worker'], { LOG_LEVEL: 'info', DB_PASSWORD: MAIN_KEY });
    const [line] = await worker.waitForStderr(
      new RegExp(`^.*run ${runId} is not served by this worker.*$`, 'm'),
    );
    // A stop lets the job in hand end first: whatever the worker would send for it is sent by then.
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });

    expect(JSON.parse(line as string)).toMatchObject({ level: 50, run: runId });
    expect(line).toMatch(/DB_PASSWORD is not a key variable|host localhost:\d+ is not allowed/);
    expect(pipeline.sandbox.stats().total).toBe(0);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'queued', settled: 0 });
    expect(worker.stderr()).not.toContain(MAIN_KEY);
  });

  it("resume pings a paused seller's base URL from Redis only on a host this environment allows", async () => {
    const hostile = pipeline.sandbox.baseUrl.replace('127.0.0.1', 'localhost');
    const ref = sellerRef(hostile, MAIN_KEY);
    await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      await new SellerRegistry(redis, keys).register({
        ref,
        baseUrl: hostile,
        queueName: sellerQueueName(ref),
      });
      await new SellerState(redis, keys).markAuthRejected(ref);
    });

    const refused = await pipeline.cli(['resume', '--seller', ref]);

    const line = expectOneLineRefusal(refused);
    expect(line).toMatch(
      new RegExp(`^catalog-sync: seller ${ref} stays paused: .*host localhost:\\d+ is not allowed`),
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
    const allowed = await pipeline.cli(['resume', '--seller', ref], { CATALOG_SYNC_API_HOSTS: 'localhost' });
    expect(allowed.stdout).toContain(`seller ${ref}: resumed`);
  });
});
