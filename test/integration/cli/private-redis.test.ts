import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { hasRedisServerBinary } from '../../../src/redis/private-server.js';
import { assertBuilt, BIN } from '../support/cli.js';

// A network namespace of its own has an empty loopback: nothing answers on 127.0.0.1:6379 there,
// without stopping the machine's Redis that other tests use.
const canIsolate =
  spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0 &&
  hasRedisServerBinary();

function inEmptyNetwork(args: string[]) {
  assertBuilt();
  const { REDIS_URL: _unset, ...env } = process.env;
  return spawnSync(
    'unshare',
    ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, BIN, ...args],
    { cwd: projectRoot(), env: { ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 60_000 },
  );
}

/** Pids of redis-servers started the way a private one is (`--daemonize no`, no disk). */
function privateRedisServers(): string[] {
  const found = spawnSync('pgrep', ['-f', 'redis-server.*--daemonize no'], { encoding: 'utf8' });
  return found.stdout.trim().split('\n').filter(Boolean).sort();
}

describe.skipIf(!canIsolate)('when REDIS_URL is unset and no Redis answers on 127.0.0.1:6379', () => {
  it('`run --sandbox` starts a private redis-server for the run, and stops it after', () => {
    const before = privateRedisServers();
    const result = inEmptyNetwork(['run', '--sandbox', 'fixtures/catalog.csv']);
    expect(result.stderr).not.toContain('Redis is not reachable');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('rows      20: 20 created');
    expect(privateRedisServers()).toEqual(before);
  });

  it('`npm start` (the demo) syncs twice, the second run writing nothing', () => {
    const result = inEmptyNetwork(['demo']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /rows {6}20: 20 created[\s\S]*rows {6}20: 0 created, 0 updated, 20 unchanged/,
    );
    expect(result.stdout).toContain('requests  1 (0 writes)');
  });

  it('any other command says in one line how to start a Redis, and exits 2', () => {
    const result = inEmptyNetwork(['status']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^catalog-sync: Redis is not reachable at redis:\/\/127\.0\.0\.1:6379 .*docker compose up -d redis/,
      ),
    ]);
  });
});
