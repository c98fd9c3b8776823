import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
