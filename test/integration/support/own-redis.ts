import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { redisAnswers } from '../../../src/redis/private-server.js';

export interface OwnRedisOptions {
  /** More `redis-server` arguments: `--maxmemory 4mb`, `--requirepass …`, `--replicaof …`. */
  args?: string[];
  /** AOF on, fsync'd at every write (the default: a restart keeps everything); false: nothing on disk. */
  persistence?: boolean;
  /** The password `requirepass` sets: readiness and `client()` use it; `url` does not carry it. */
  password?: string;
  /** How to tell it is up, when PING on `url` cannot (a TLS port). */
  answers?: () => Promise<boolean>;
}

/** A Redis of this test's own, with AOF, on a free port: the shared one is never stopped. */
export class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    readonly dir: string,
    readonly options: OwnRedisOptions = {},
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The URL with the password, when there is one. */
  get urlWithPassword(): string {
    return this.options.password
      ? `redis://:${encodeURIComponent(this.options.password)}@127.0.0.1:${this.port}`
      : this.url;
  }

  async start(): Promise<void> {
    const persistence =
      this.options.persistence === false
        ? ['--appendonly', 'no', '--save', '']
        : ['--appendonly', 'yes', '--appendfsync', 'always'];
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', ...persistence, ...(this.options.args ?? [])],
      { cwd: this.dir, stdio: 'ignore' },
    );
    this.child = child;
    const answers = this.options.answers ?? (() => redisAnswers(this.urlWithPassword, 200));
    for (let i = 0; i < 100 && child.exitCode === null && !(await answers()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** False once the server has exited (e.g. it refused its arguments). */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null;
  }

  /** A connection of the test's own (CONFIG SET, FLUSHALL, INFO on this server only); quit it after. */
  client(): Redis {
    return new Redis(this.urlWithPassword, { maxRetriesPerRequest: null });
  }

  /** Freezes the server (SIGSTOP to its PID): connections stay open and nothing is answered. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Lets a paused server go on (SIGCONT). */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      // A paused server would hold the SIGTERM until it runs again.
      child.kill('SIGCONT');
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
