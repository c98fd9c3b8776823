import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import type { CliProcess } from '../big-import/processes.js';
import { untilRedisAnswers } from '../goals/private-redis.js';

export const PREFIX = 'bench-fleet';

/** A built checkout of catalog-sync: this one, or an older commit's (the design issue 13 replaced). */
export interface Build {
  label: string;
  root: string;
}

export const keyOf = (i: number) => `sk_fleet_${String(i).padStart(4, '0')}`;
export const sellerOf = (i: number) => `fleet-${String(i).padStart(4, '0')}`;
export const variableOf = (i: number) => `SELLER_API_KEY_FLEET_${String(i).padStart(4, '0')}`;

/** A port nothing listens on now (taken from the kernel, then let go). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** A redis-server of the bench's own on a free port, no persistence; `own` is the bench's client. */
export interface FleetRedis {
  url: string;
  port: number;
  own: Redis;
  ownId: number;
  stop(): Promise<void>;
}

export async function startFleetRedis(): Promise<FleetRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  // Not daemonized: a child of this process, so it stops with the bench whatever happens.
  const server = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxclients',
      '20000',
    ],
    { stdio: 'ignore' },
  );
  await untilRedisAnswers(url, port);
  const own = new Redis(url, { maxRetriesPerRequest: null });
  const ownId = Number(await own.client('ID'));
  return {
    url,
    port,
    own,
    ownId,
    async stop() {
      own.disconnect();
      spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
      if (server.exitCode === null) server.kill('SIGKILL');
    },
  };
}

/** Clients connected to the bench Redis other than the bench's own: the worker's, when it runs alone. */
export async function othersConnected(redis: FleetRedis): Promise<number> {
  const list = (await redis.own.client('LIST')) as string;
  return list.split('\n').filter((line) => line.startsWith('id=') && !line.startsWith(`id=${redis.ownId} `))
    .length;
}

/** CPU seconds the Redis server has used (INFO cpu: used_cpu_sys + used_cpu_user). */
export async function redisCpuSeconds(redis: FleetRedis): Promise<number> {
  const info = await redis.own.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_sys') + field('used_cpu_user');
}

type Main = (argv: string[], io: Record<string, unknown>) => Promise<number>;

/** The build's CLI `main`, loaded into this process (each build its own module graph). */
export async function loadMain(build: Build): Promise<Main> {
  const url = pathToFileURL(join(build.root, 'dist/src/cli/main.js')).href;
  return ((await import(url)) as { main: Main }).main;
}

/** The environment in which seller i's commands run: its key under a variable of its own. */
export function sellerEnv(redisUrl: string, baseUrl: string, i: number): NodeJS.ProcessEnv {
  return {
    SELLER_API_BASE_URL: baseUrl,
    [variableOf(i)]: keyOf(i),
    REDIS_URL: redisUrl,
    CATALOG_SYNC_PREFIX: PREFIX,
    LOG_LEVEL: 'silent',
    PATH: process.env.PATH,
  };
}

/**
 * `catalog-sync import|run <csv> --key-env SELLER_API_KEY_FLEET_i` for sellers [from, to), in this
 * process with the build's own `main`, `parallel` at a time: what 3,000 child processes would take
 * minutes to do. Either registers the seller; `import` queues one run, `run` syncs it to the end
 * (a seller with a finished run). Returns the run ids.
 */
export async function importSellers(
  main: Main,
  command: 'import' | 'run',
  env: (i: number) => NodeJS.ProcessEnv,
  csv: string,
  from: number,
  to: number,
  parallel = 25,
): Promise<string[]> {
  const ids: string[] = [];
  let next = from;
  const lane = async () => {
    while (next < to) {
      const i = next++;
      let output = '';
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          output += chunk.toString('utf8');
          done();
        },
      });
      const code = await main(['node', 'catalog-sync', command, csv, '--key-env', variableOf(i)], {
        stdout: stream,
        stderr: stream,
        stdin: Readable.from([]),
        env: env(i),
      });
      const id = /\b(\d{8}T\d{6}-[0-9a-f]+(?:-[0-9a-f]{16})?)\b/.exec(output)?.[1];
      if (code !== 0 || !id)
        throw new Error(`${command} for ${sellerOf(i)} exited ${code}: ${output.trim()}`);
      ids.push(id);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return ids;
}

/** Writes NAME=KEY lines for sellers [0, n), mode 0600 (`worker --keys-file`). */
export async function writeKeysFile(path: string, n: number): Promise<void> {
  const lines = Array.from({ length: n }, (_, i) => `${variableOf(i)}=${keyOf(i)}\n`);
  await writeFile(path, lines.join(''), { mode: 0o600 });
}

/** `node <build>/bin/catalog-sync.js worker …` as a child process. */
export function spawnWorker(build: Build, args: string[], env: NodeJS.ProcessEnv): CliProcess {
  // FLEET_WORKER_PROF=DIR: a CPU profile of each worker in DIR (node --cpu-prof), for where its time goes.
  const profile = process.env.FLEET_WORKER_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FLEET_WORKER_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, join(build.root, 'bin/catalog-sync.js'), 'worker', ...args],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  const keep = (chunk: Buffer) => {
    // The last 64 KiB are enough to say why a worker failed.
    text = (text + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (process.env.FLEET_WORKER_LOG) {
    child.stdout?.pipe(process.stderr);
    child.stderr?.pipe(process.stderr);
  }
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  if (child.pid === undefined) throw new Error('could not start the worker');
  return {
    pid: child.pid,
    output: () => text,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
