import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import type { CliChild } from '../support/cli.js';
import { useOwnRedis } from '../support/own-redis.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

/** A managed service's usual application user: every command but the dangerous ones, INFO among them. */
const NO_DANGEROUS = ['on', '>limited-pw', '~*', '&*', '+@all', '-@dangerous'];

/** What the tool must never print for such a user: ioredis' ready-check warning, BullMQ's INFO refused. */
const INFO_NOISE = /ready check|NOPERM|'info'/i;

/** Resolves with the child's exit, or null when it still runs after `ms` (then it is killed). */
async function exitWithin(child: CliChild, ms: number) {
  const ended = await Promise.race([
    child.exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);
  if (ended === null) child.process.kill('SIGKILL');
  return ended;
}

/**
 * An ACL user that may not run INFO (`+@all -@dangerous`): ioredis' ready check and BullMQ's
 * version check ask INFO, and nothing else the tool does needs it. `status` printed ioredis'
 * warning once per connection; `run` hung for good, its queue retrying INFO every 10 s. Every
 * command must work as for any user, with no line about INFO.
 */
describe('a Redis user that may not run INFO (+@all -@dangerous)', () => {
  const own = useOwnRedis();
  const pipeline = usePipeline();

  it('run, status, import and worker work, and none prints a line about INFO', {
    timeout: 90_000,
  }, async () => {
    const admin = own.redis.client();
    try {
      expect(await admin.acl('SETUSER', 'limited', ...NO_DANGEROUS)).toBe('OK');
    } finally {
      admin.disconnect();
    }
    // At info, as a deployment logs: a queue's error retried would show.
    const env = { REDIS_URL: `redis://limited:limited-pw@127.0.0.1:${own.redis.port}`, LOG_LEVEL: 'info' };
    const rows = catalogRows(30);

    const run = pipeline.spawn(['run', await pipeline.csv('catalog.csv', rows)], env);
    expect(await exitWithin(run, 45_000), `run: ${run.stderr()}`).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toContain('rows      30: 30 created');
    expect(run.stderr()).not.toMatch(INFO_NOISE);
    // The checks that read INFO are said to be skipped, not believed made.
    expect(run.stderr()).toContain(
      `"msg":"Redis at redis://limited:***@127.0.0.1:${own.redis.port} lets this user run no INFO: whether it is a primary, its eviction policy and the room left are not checked; grant the user +info to have them checked"`,
    );

    const status = pipeline.spawn(['status'], env);
    expect(await exitWithin(status, 20_000), `status: ${status.stderr()}`).toEqual({ code: 0, signal: null });
    expect(status.stderr()).toBe('');

    const more = catalogRows(40);
    const imported = pipeline.spawn(['import', await pipeline.csv('more.csv', more)], env);
    expect(await exitWithin(imported, 20_000), `import: ${imported.stderr()}`).toEqual({
      code: 0,
      signal: null,
    });
    const worker = pipeline.spawn(['worker'], env);
    await worker.waitForStderr(/"msg":"run \S+ done"/);
    worker.process.kill('SIGTERM');
    expect(await exitWithin(worker, 20_000), `worker: ${worker.stderr()}`).toEqual({ code: 0, signal: null });
    expect(worker.stderr()).not.toMatch(INFO_NOISE);
    expect(pipeline.products(MAIN_SELLER)).toHaveLength(more.length);
  });
});

const unsupported = clusterUnsupported();

describe.skipIf(unsupported !== null)(
  `a Redis Cluster user that may not run INFO${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster();
    const pipeline = usePipeline();

    it('run and status work, and neither prints a line about INFO', { timeout: 90_000 }, async () => {
      await holder.cluster.aclSetUser('limited', NO_DANGEROUS);
      const env = {
        REDIS_CLUSTER: `redis://limited:limited-pw@${holder.cluster.nodes}`,
        REDIS_URL: 'redis://127.0.0.1:1',
        LOG_LEVEL: 'info',
      };
      const run = pipeline.spawn(['run', await pipeline.csv('catalog.csv', catalogRows(30))], env);
      expect(await exitWithin(run, 45_000), `run: ${run.stderr()}`).toEqual({ code: 0, signal: null });
      expect(run.stdout()).toContain('rows      30: 30 created');
      expect(run.stderr()).not.toMatch(INFO_NOISE);

      const status = pipeline.spawn(['status'], env);
      expect(await exitWithin(status, 20_000), `status: ${status.stderr()}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(status.stderr()).toBe('');
    });
  },
);
