import type { Command } from 'commander';
import { writeReport, writeReportFile } from '../../runs/report.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

export function registerReport(program: Command, io: CliIo): void {
  program
    .command('report <run-id>')
    .description('the per-row result file of a run (CSV: row,key,action,product_id,status,error,note)')
    .option('--out <file>', 'write it to a file instead of standard output')
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL)')
    .action(async (runId: string, flags: { out?: string; redisUrl?: string }) => {
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        if (!(await runtime.runs.get(runId)))
          throw new UsageError(`no run ${runId} in Redis (runs are kept 7 days)`);
        if (flags.out) await writeReportFile(runtime.runs, runId, flags.out);
        else await writeReport(runtime.runs, runId, io.stdout, { terminal: true });
      });
    });
}
