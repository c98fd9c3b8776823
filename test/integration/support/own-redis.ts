import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { redisAnswers } from '../../../src/redis/private-server.js';

/** A Redis of this test's own, with AOF, on a free port: the shared one is never stopped. */
export class OwnRedis {
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

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Per test: a Redis of the test's own (AOF on) in a temporary directory, stopped and removed after.
 * Returns a holder whose `redis` is set before each test.
 */
export function useOwnRedis(): { redis: OwnRedis } {
  const holder = {} as { redis: OwnRedis };
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-own-redis-'));
    holder.redis = new OwnRedis(await freePort(), dir);
    await holder.redis.start();
  });
  afterEach(async () => {
    await holder.redis.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return holder;
}
