import { describe, expect, it } from 'vitest';
import { commandsFor } from '../../../src/cli/main.js';
import { launcherWithPreload } from './launch-with-preload.js';

const argv = (...args: string[]) => ['node', 'catalog-sync', ...args];

describe('commandsFor', () => {
  it('is the command the arguments name, whatever options come before or after it', () => {
    expect(commandsFor(argv('status'))).toEqual(['status']);
    expect(commandsFor(argv('run', 'catalog.csv', '--concurrency', '16'))).toEqual(['run']);
    expect(commandsFor(argv('--help', 'report'))).toEqual(['report']);
    expect(commandsFor(argv('orders', 'export', '--out', 'o.csv'))).toEqual(['orders']);
  });

  it('is every command when none is named: help, a mistyped name, no arguments', () => {
    const all = commandsFor(argv('--help'));
    expect(all).toEqual(expect.arrayContaining(['run', 'import', 'worker', 'status', 'sandbox', 'demo']));
    expect(all).toHaveLength(16);
    expect(commandsFor(argv())).toEqual(all);
    expect(commandsFor(argv('help', 'run'))).toEqual(all);
    expect(commandsFor(argv('rn', 'catalog.csv'))).toEqual(all);
    expect(commandsFor(argv('--version', '--help'))).toEqual(all);
  });

  it('is none for --version alone', () => {
    expect(commandsFor(argv('--version'))).toEqual([]);
    expect(commandsFor(argv('-V'))).toEqual([]);
  });
});

/**
 * The launcher as a user runs it, with a preload that says at exit whether the Redis client was
 * loaded (ioredis is CommonJS, so it shows in require.cache however it was imported).
 */
describe('bin/catalog-sync.js loads the modules of the command it runs', () => {
  const launch = launcherWithPreload([
    "process.on('exit', () => {",
    '  const redis = Object.keys(require.cache).some((path) => /[\\\\/]node_modules[\\\\/]ioredis[\\\\/]/.test(path));',
    "  process.stderr.write('REDIS-CLIENT-LOADED ' + redis + '\\n');",
    '});',
  ]);

  async function redisClientLoaded(args: string[]): Promise<boolean> {
    const { stdout, stderr } = await launch(args);
    expect(stdout).not.toBe('');
    const said = /^REDIS-CLIENT-LOADED (true|false)$/m.exec(stderr)?.[1];
    expect(said).toBeDefined();
    return said === 'true';
  }

  it('ping, the sandbox and --version start without the Redis client (nor BullMQ, which loads it)', async () => {
    expect(await redisClientLoaded(['ping', '--help'])).toBe(false);
    expect(await redisClientLoaded(['sandbox', '--help'])).toBe(false);
    expect(await redisClientLoaded(['--version'])).toBe(false);
  });

  it('run loads it, and so does --help, which lists every command', async () => {
    expect(await redisClientLoaded(['run', '--help'])).toBe(true);
    expect(await redisClientLoaded(['--help'])).toBe(true);
  });
});
