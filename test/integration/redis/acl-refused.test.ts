import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { displayRedisUrl } from '../../../src/redis/connect.js';
import { catalogRows } from '../support/catalog.js';
import { type CliChild, runIdOf } from '../support/cli.js';
import { pricesDoubledHeld } from '../support/held-run.js';
import { usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';

/** The users' password: it must show nowhere (masked `***` in every line). */
const PASSWORD = `pw-Qx7-${randomBytes(6).toString('hex')}`;

/** What a crash prints: Node's stack lines, its version footer, ioredis's error. */
const STACK = /^\s+at |Node\.js v\d|ReplyError/m;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Users of a managed Redis that lack a permission catalog-sync needs: scripting (BullMQ's queue and
 * the tool's own steps are Lua scripts), or the keys of its prefix. Every command that meets the
 * refusal printed ioredis's ReplyError and its stack (exit 1); it ends with one line naming what the
 * user lacks and the ACL SETUSER that grants it, exit 2 (docs/options.md, Exit codes), and the rows
 * already queued stay queued for a worker whose user has the permission.
 */
describe('a Redis ACL user refused scripting or the keys of catalog-sync', () => {
  const pipeline = usePipeline();
  const users: string[] = [];
  const admin = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

  afterAll(async () => {
    if (users.length > 0) await admin.acl('DELUSER', ...users);
    admin.disconnect();
  });

  /** An ACL user named after the test's prefix, with `rules`; its name, REDIS_URL and the URL as shown. */
  async function aclUser(suffix: string, rules: string[], logLevel = 'warn') {
    if (admin.status === 'wait') await admin.connect();
    const name = `${pipeline.prefix}-${suffix}`;
    users.push(name);
    expect(await admin.acl('SETUSER', name, 'reset', 'on', `>${PASSWORD}`, ...rules)).toBe('OK');
    const url = new URL(TEST_REDIS_URL);
    url.username = name;
    url.password = PASSWORD;
    return {
      name,
      at: escaped(displayRedisUrl(url.toString())),
      env: { REDIS_URL: url.toString(), LOG_LEVEL: logLevel },
    };
  }

  /** `catalog-sync ...args` as `env`'s user: its exit code and output once it has ended. */
  async function spawned(args: string[], env: NodeJS.ProcessEnv) {
    const child: CliChild = pipeline.spawn(args, env);
    const { code } = await child.exited;
    return { code, stdout: child.stdout(), stderr: child.stderr() };
  }

  /** Exit 2 and one line on stderr matching `line`; no stack, no password anywhere. */
  function expectOneLine(result: Awaited<ReturnType<typeof spawned>>, line: RegExp, what: string) {
    expect(result.stderr, what).not.toMatch(STACK);
    expect(`${result.stdout}${result.stderr}`, what).not.toContain(PASSWORD);
    expect(result.code, `${what}: ${result.stderr}`).toBe(2);
    expect(result.stderr.trimEnd().split('\n'), what).toHaveLength(1);
    expect(result.stderr.trimEnd(), what).toMatch(line);
  }

  it('refused scripting: one line naming +@scripting, exit 2; the queued rows wait for a worker', {
    timeout: 120_000,
  }, async () => {
    // Made with the suite's own user: a run held by a guard, and an import's rows queued, no worker.
    const held = await pricesDoubledHeld(pipeline, 4);
    const queuedRows = catalogRows(12, 101);
    const imported = await pipeline.cli(['import', await pipeline.csv('queued.csv', queuedRows)]);
    expect(imported.code, imported.stderr).toBe(0);
    const queued = runIdOf(imported.stdout);

    const user = await aclUser('noscript', [`~${pipeline.prefix}:*`, '&*', '+@all', '-@scripting']);
    const line = new RegExp(
      `^catalog-sync: Redis at ${user.at} refused user ${user.name} a command catalog-sync needs ` +
        `\\(NOPERM [^)]*'eval(sha)?(_ro)?' command\\): grant it with ACL SETUSER ${user.name} \\+@scripting ` +
        `\\(its queue and its own steps are Lua scripts\\); then run the command again ` +
        `\\(the rows already queued stay queued\\)$`,
    );
    const commands = [
      ['run', await pipeline.csv('run.csv', catalogRows(5, 201))],
      ['import', await pipeline.csv('import.csv', catalogRows(5, 301))],
      ['worker'],
      ['status'],
      ['approve', held],
      ['cancel', queued],
    ];
    for (const args of commands) expectOneLine(await spawned(args, user.env), line, args[0] as string);
    // `report` reads what it needs with plain commands: it works for such a user.
    const report = await spawned(['report', queued], user.env);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).not.toMatch(STACK);

    // Nothing was lost: the held run is held still, and the queued rows all go with a worker whose
    // user may run scripts (on the test's keys only).
    expect(JSON.parse((await pipeline.cli(['status', held, '--json'])).stdout).state).toBe('held');
    const granted = await aclUser('granted', [`~${pipeline.prefix}:*`, '&*', '+@all'], 'info');
    const worker = pipeline.spawn(['worker'], granted.env);
    await worker.waitForStderr(new RegExp(`"msg":"run ${queued} done"`));
    worker.process.kill('SIGTERM');
    expect((await worker.exited).code, worker.stderr()).toBe(0);
    const skus = new Set(pipeline.products().map((product) => product.sku));
    expect(queuedRows.filter((row) => !skus.has(row.sku))).toEqual([]);
  });

  // Refused at connect (the PING that proves the connection): the same line as a refusal met later.
  it('refused even PING at connect: one line naming the command and the ACL SETUSER that grants it, exit 2', {
    timeout: 60_000,
  }, async () => {
    const user = await aclUser('noping', [`~${pipeline.prefix}:*`, '&*', '+@all', '-ping']);
    const name = escaped(user.name);
    const line = new RegExp(
      `^catalog-sync: Redis at ${user.at} refused user ${name} a command catalog-sync needs ` +
        `\\(NOPERM [^)]*'ping' command\\): grant it with ACL SETUSER ${name} \\+ping; then run the command again$`,
    );
    const source = await pipeline.csv('feed.csv', catalogRows(3));
    for (const args of [['status'], ['run', source]])
      expectOneLine(await spawned(args, user.env), line, args[0] as string);
    expect(pipeline.products()).toEqual([]);
  });

  it('refused the keys of its prefix: one line naming the key pattern to grant, exit 2', {
    timeout: 120_000,
  }, async () => {
    const held = await pricesDoubledHeld(pipeline, 4);
    const user = await aclUser('otherkeys', ['~other:*', '&*', '+@all']);
    const prefix = escaped(pipeline.prefix);
    const line = new RegExp(
      `^catalog-sync: Redis at ${user.at} refused user ${user.name} the keys of catalog-sync ` +
        `\\(NOPERM [^)]*\\): they all start with ${prefix}: \\(CATALOG_SYNC_PREFIX\\); grant them with ` +
        `ACL SETUSER ${user.name} ~${prefix}:\\*, or set CATALOG_SYNC_PREFIX to a prefix its key patterns ` +
        'cover; then run the command again \\(the rows already queued stay queued\\)$',
    );
    const source = await pipeline.csv('more.csv', catalogRows(5, 201));
    const commands = [
      ['run', source],
      ['import', source],
      ['worker'],
      ['status'],
      ['approve', held],
      ['cancel', held],
      ['report', held],
    ];
    for (const args of commands) expectOneLine(await spawned(args, user.env), line, args[0] as string);
    expect(JSON.parse((await pipeline.cli(['status', held, '--json'])).stdout).state).toBe('held');
  });
});
