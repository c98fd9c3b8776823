import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BEFORE_THE_APPROVAL } from '../../../src/cli/commands/approve.js';
import { BEFORE_THE_RUN } from '../../../src/cli/signals.js';
import { projectRoot } from '../../../src/project-root.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * An interrupt while the command listens for none of its own (`ping` waiting on an API that never
 * answers; the same holds while the CLI's modules load): Node's default ended the process with no
 * line, so cron's mail said nothing. The launcher's early handler (bin/early-signals.js) says it.
 */
describe('an interrupt no command listens for', () => {
  const pipeline = usePipeline();
  let silent: Server | undefined;

  afterEach(() => {
    silent?.closeAllConnections();
    silent?.close();
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: one line, exit %i', { timeout: 30_000 }, async (signal, code) => {
    const server = createServer(() => {});
    silent = server;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const connected = once(server, 'connection');
    const ping = pipeline.spawn(['ping'], {
      SELLER_API_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    });
    // The CLI is past its start and waits on the API's answer.
    await connected;

    ping.process.kill(signal);

    expect(await ping.exited).toEqual({ code, signal: null });
    expect(ping.stderr()).toBe(`catalog-sync: interrupted (${signal})\n`);
  });
});

/**
 * An interrupt while the launcher still loads the CLI's bundle (parsing 4 MB takes a few hundred ms
 * on a loaded machine): the early handler must already listen. A loader hook holds the bundle's load
 * until the test has sent the signal, so the window is as long as the test needs, not a race.
 */
describe('an interrupt while the bundle loads', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-early-'));
    // The hook runs on Node's loader thread: it says it holds the bundle through a file, then waits.
    await writeFile(
      join(dir, 'hold.mjs'),
      [
        "import { writeFileSync } from 'node:fs';",
        'export async function load(url, context, next) {',
        "  if (url.endsWith('/dist/bundle/catalog-sync.js')) {",
        `    writeFileSync(${JSON.stringify(join(dir, 'held'))}, '');`,
        '    await new Promise(() => setInterval(() => {}, 1000));',
        '  }',
        '  return next(url, context);',
        '}',
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hold.mjs')).href)});\n`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The launcher with `args`, interrupted by `signal` while its bundle loads: its exit and stderr. */
  async function interruptedWhileLoading(args: string[], signal: NodeJS.Signals) {
    await rm(join(dir, 'held'), { force: true });
    const child = spawn(
      process.execPath,
      ['--import', join(dir, 'register.mjs'), join(projectRoot(), 'bin/catalog-sync.js'), ...args],
      { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = once(child, 'exit');
    await vi.waitFor(() => access(join(dir, 'held')), { timeout: 20_000, interval: 20 });

    child.kill(signal);

    return { exit: await exited, stderr };
  }

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: one line, exit %i', { timeout: 30_000 }, async (signal, code) => {
    expect(await interruptedWhileLoading(['status'], signal)).toEqual({
      exit: [code, null],
      stderr: `catalog-sync: interrupted (${signal})\n`,
    });
  });

  // Before: `approve` interrupted in its first ~0.5 s said only `interrupted (SIGINT)`, leaving the
  // seller to guess whether anything was approved; from its action on, the line said the state.
  it.each([
    [['approve', 'R1', '--rows', '1,2'], 'SIGINT', 130, BEFORE_THE_APPROVAL],
    [['approve', 'R1'], 'SIGTERM', 143, BEFORE_THE_APPROVAL],
    [['run', 'feed.csv'], 'SIGINT', 130, BEFORE_THE_RUN],
    [['import', 'feed.csv'], 'SIGTERM', 143, BEFORE_THE_RUN],
  ] as const)(
    '%j, %s: the line says nothing was done, as the command says it later',
    {
      timeout: 30_000,
    },
    async (args, signal, code, words) => {
      expect(await interruptedWhileLoading([...args], signal)).toEqual({
        exit: [code, null],
        stderr: `catalog-sync: interrupted (${signal}) ${words}\n`,
      });
    },
  );
});
