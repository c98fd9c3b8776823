import { Queue } from 'bullmq';
import type { Command } from 'commander';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

export function registerResume(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('lifts a pause left by a rejected key (401), once the key is fixed')
    .option(
      '--seller <ref>',
      'the seller ref printed when the key was rejected (default: every paused seller)',
    )
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL)')
    .action(async (flags: { seller?: string; redisUrl?: string }) => {
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const sellers = (await runtime.sellers.registered()).filter(
          (s) => !flags.seller || s.ref === flags.seller,
        );
        if (flags.seller && sellers.length === 0)
          throw new UsageError(`no seller ${flags.seller} is known to this Redis`);
        let resumed = 0;
        for (const seller of sellers) {
          const wasRejected = await runtime.sellers.clearAuthRejected(seller.ref);
          const queue = new Queue(seller.queueName, {
            connection: runtime.redis,
            prefix: runtime.config.prefix,
          });
          if (wasRejected || (await queue.isPaused())) {
            await queue.resume();
            resumed++;
            io.stdout.write(`seller ${seller.ref}: resumed\n`);
          }
          await queue.close();
        }
        if (resumed === 0) io.stdout.write('no seller was paused\n');
      });
    });
}
