import { join } from 'node:path';
import type { Command } from 'commander';
import {
  DEFAULT_FULL_READ_AFTER_MS,
  DEFAULT_MAX_RECORD_BYTES,
  DEFAULT_SOURCE_TIMEOUT_MS,
} from '../../defaults.js';
import { projectRoot } from '../../project-root.js';
import { startSandbox } from '../../sandbox/index.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../program.js';
import type { RunFlags } from '../run-flags.js';
import { withRuntime } from '../runtime.js';
import { isInterruptExitCode } from '../signals.js';
import { syncOnce } from './run.js';

/**
 * `npm start`: the main job on its embedded default (README, The two commands). The sandbox Seller API
 * runs in
 * this process; fixtures/catalog.csv is synced into it twice, and the second run writes nothing.
 */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo', { hidden: true })
    .description('what `npm start` runs: sync fixtures/catalog.csv into an in-process sandbox, twice')
    .option('--source <file>', 'the catalog to sync', join(projectRoot(), 'fixtures', 'catalog.csv'))
    .action(async (options: { source: string }) => {
      // A marketplace that keeps its own form of names and prices: the second run still writes nothing.
      const sandbox = await startSandbox({ port: 0, normalize: true });
      // A key variable of the allowed form (SELLER_API_KEY_*), set in this process only.
      const keyEnv = 'SELLER_API_KEY_CATALOG_SYNC_DEMO';
      io.env[keyEnv] = sandbox.defaultKey.key;
      const flags: RunFlags = {
        matchBy: 'sku',
        concurrency: 8,
        dryRun: false,
        dailyReset: '00:00',
        wait: true,
        sandbox: false,
        keyEnv,
        baseUrl: sandbox.baseUrl,
        allowInsecure: false,
        force: false,
        allowEviction: false,
        incremental: false,
        onlyPublished: false,
        includeExternal: false,
        priceIncludesTax: false,
        fullReadAfter: DEFAULT_FULL_READ_AFTER_MS,
        sourceTimeout: DEFAULT_SOURCE_TIMEOUT_MS,
        allowPrivateSource: false,
        maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
      };
      try {
        await withRuntime(
          io,
          { privateRedisAllowed: true, logLevel: io.env.LOG_LEVEL ?? 'warn' },
          async (runtime) => {
            io.stdout.write(`sandbox Seller API at ${sandbox.baseUrl}\n\nfirst sync of ${options.source}:\n`);
            const first = await syncOnce(io, runtime, options.source, flags);
            // Interrupted (Ctrl-C), its line said: the second sync is not begun.
            if (isInterruptExitCode(first)) {
              io.exitCode = first;
              return;
            }
            io.stdout.write('\nthe same catalog again (every row unchanged, no write):\n');
            const second = await syncOnce(io, runtime, options.source, flags);
            io.exitCode = first === ExitCode.ok ? second : first;
          },
        );
      } finally {
        await sandbox.close();
      }
    });
}
