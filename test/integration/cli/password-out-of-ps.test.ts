import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useOwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';

const PASSWORD = 'Sup3rSecretRedisPw';
const hasProc = existsSync('/proc/self/cmdline');

/**
 * `worker --redis-url redis://:PASSWORD@…` showed the password to every user of the machine (`ps`,
 * /proc/<pid>/cmdline) for the worker's whole life. Once the worker runs, what ps shows holds the
 * command line with the password masked.
 */
describe.skipIf(!hasProc)(
  `a password given on the command line${hasProc ? '' : ': skipped, no /proc here'}`,
  () => {
    const own = useOwnRedis();
    const pipeline = usePipeline();

    it('is masked in /proc/<pid>/cmdline and ps while the worker runs', { timeout: 30_000 }, async () => {
      const admin = own.redis.client();
      try {
        await admin.config('SET', 'requirepass', PASSWORD);
      } finally {
        admin.disconnect();
      }
      const url = `redis://:${PASSWORD}@127.0.0.1:${own.redis.port}`;
      const worker = pipeline.spawn(['worker', '--redis-url', url], { LOG_LEVEL: 'info' });
      await worker.waitForStderr(/worker started/);
      const pid = worker.process.pid as number;

      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '');
      expect(cmdline).not.toContain(PASSWORD);
      expect(cmdline).toContain(`worker --redis-url redis://:***@127.0.0.1:${own.redis.port}`);
      const ps = spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
      if (ps.status === 0) expect(ps.stdout).not.toContain(PASSWORD);

      worker.process.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(worker.stderr()).not.toContain(PASSWORD);
    });
  },
);
