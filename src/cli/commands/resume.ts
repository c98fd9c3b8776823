import { Queue } from 'bullmq';
import type { Command } from 'commander';
import { sellerRef } from '../../queue/seller-ref.js';
import type { SellerInfo } from '../../queue/seller-state.js';
import { SellerApiClient, SellerApiError, UnauthorizedError } from '../../seller-api/index.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../program.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

interface ResumeFlags {
  seller?: string;
  keyEnv: string;
  allowInsecure: boolean;
  redisUrl?: string;
}

export function registerResume(program: Command, io: CliIo): void {
  program
    .command('resume')
    .description('lifts a pause left by a rejected key (401), once the key is fixed')
    .option(
      '--seller <ref>',
      'the seller ref printed when the key was rejected (default: every paused seller)',
    )
    .option(
      '--key-env <name>',
      'the variable that holds the fixed (or new) key; it is checked first',
      'SELLER_API_KEY',
    )
    .option('--allow-insecure', 'allow an http:// base URL that is not loopback', false)
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL)')
    .action(async (flags: ResumeFlags) => {
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const sellers = (await runtime.sellers.registered()).filter(
          (s) => !flags.seller || s.ref === flags.seller,
        );
        if (flags.seller && sellers.length === 0)
          throw new UsageError(`no seller ${flags.seller} is known to this Redis`);
        let resumed = 0;
        for (const seller of sellers) {
          const queue = new Queue(seller.queueName, {
            connection: runtime.redis,
            prefix: runtime.config.prefix,
          });
          queue.on('error', () => undefined);
          try {
            const paused =
              (await runtime.sellers.status(seller.ref, '00:00')).authRejected || (await queue.isPaused());
            if (!paused) continue;
            const checked = await checkKey(io, runtime, seller, flags);
            if (checked !== ExitCode.ok) {
              io.exitCode = checked;
              continue;
            }
            await runtime.sellers.clearAuthRejected(seller.ref);
            await queue.resume();
            resumed++;
            io.stdout.write(`seller ${seller.ref}: resumed\n`);
          } finally {
            await queue.close();
          }
        }
        if (resumed === 0 && io.exitCode === ExitCode.ok) io.stdout.write('no seller was paused\n');
      });
    });
}

/**
 * Resuming with a key that is still rejected would only pause again: ping first. A new key (a
 * replaced one) is linked to the seller, so it serves the same queue and id map.
 */
async function checkKey(
  io: CliIo,
  runtime: Runtime,
  seller: SellerInfo,
  flags: ResumeFlags,
): Promise<number> {
  const apiKey = io.env[flags.keyEnv]?.trim();
  if (!apiKey) {
    io.stderr.write(
      `catalog-sync: ${flags.keyEnv} is not set: resuming seller ${seller.ref} without checking its key\n`,
    );
    return ExitCode.ok;
  }
  const client = new SellerApiClient({
    baseUrl: seller.baseUrl,
    apiKey,
    allowInsecure: flags.allowInsecure,
    timeoutMs: 15_000,
  });
  try {
    await client.ping();
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      io.stderr.write(
        `catalog-sync: the key in ${flags.keyEnv} is rejected too (401): seller ${seller.ref} stays paused\n`,
      );
      return ExitCode.unauthorized;
    }
    if (error instanceof SellerApiError) {
      io.stderr.write(`catalog-sync: cannot check the key: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  const fingerprint = sellerRef(seller.baseUrl, apiKey);
  if ((await runtime.sellers.resolveRef(fingerprint)) !== seller.ref) {
    await runtime.sellers.linkKey(fingerprint, seller.ref);
    io.stdout.write(`seller ${seller.ref}: the key in ${flags.keyEnv} now serves this seller\n`);
  }
  return ExitCode.ok;
}
