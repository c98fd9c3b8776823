import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redisAnswers } from '../../../src/redis/private-server.js';
import { catalogRows } from '../support/catalog.js';
import { CliProcesses } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { expectExactCatalog } from './support/exact-catalog.js';

/** A Redis of this test's own, with AOF, on a free port: the shared one is never stopped. */
class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--appendfsync', 'always'],
      { cwd: this.dir, stdio: 'ignore' },
    );
    for (let i = 0; i < 100 && !(await redisAnswers(this.url, 200)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('when Redis goes away in the middle of a run', () => {
  const pipeline = usePipeline({ latencyMs: 20 });
  const processes = new CliProcesses();
  let redis: OwnRedis;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-own-redis-'));
    redis = new OwnRedis(await freePort(), dir);
    await redis.start();
  });
  afterEach(async () => {
    await processes.stopAll();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes on after a restart (AOF on) and ends exact, with no duplicate', { timeout: 60_000 }, async () => {
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);
    const run = processes.spawn(['run', source, '--concurrency', '4'], {
      ...pipeline.env,
      REDIS_URL: redis.url,
    });
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 40);

    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await redis.start();

    expect(await run.exited).toEqual({ code: 0, signal: null });
    expectExactCatalog(pipeline.products(), rows);
  });

  it('says so in one line and exits 2 when it does not come back; nothing is written twice', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);
    const run = processes.spawn(['run', source, '--concurrency', '4'], {
      ...pipeline.env,
      REDIS_URL: redis.url,
      CATALOG_SYNC_REDIS_DEADLINE_MS: '2000',
    });
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 40);

    await redis.stop();

    expect(await run.exited).toEqual({ code: 2, signal: null });
    const lines = run.stderr().trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ has not answered for 2 s; stopping\./,
    );
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    const skus = pipeline.products().map((p) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
  });
});
