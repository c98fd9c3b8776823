import type { Command } from 'commander';
import { cancelRun } from '../../queue/cancel-run.js';
import { liftMarksOfIdleSeller } from '../../queue/idle-seller-marks.js';
import { sellerLabel } from '../../queue/seller-names.js';
import { formatSummary } from '../../runs/summary.js';
import { terminalSafe } from '../../terminal-safe.js';
import { addConnectionOptions, type ConnectionFlags, commandLineBaseUrls } from '../connection-options.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

export function registerCancel(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('cancel <run-id>'), { redis: true })
    .description('ends a queued or paused run: jobs removed, unsettled rows reported skipped (cancelled)')
    .addHelpText(
      'after',
      [
        '',
        'Rows already settled keep their outcome; the others are reported `skipped` with error',
        '`cancelled`, and the run ends as cancelled with its full report (`catalog-sync report`).',
        'A run a live worker is working on: what is still queued is removed at once; the chunk',
        'in progress finishes its rows (a write is never cut in half), then the run ends cancelled.',
        'A run already done, or unknown, is refused (exit 2).',
        'When no other run of its seller is queued, the seller is no longer shown paused for a',
        'rejected key (401) or an API out of reach: a mistyped key or base URL leaves nothing behind.',
        'It sends nothing to the Seller API: it takes the connection options of the other commands',
        '(--base-url, --keys-file, …) so that one set of them serves every command of a script.',
      ].join('\n'),
    )
    .action(async (runId: string, flags: ConnectionFlags) => {
      // Checked as every command checks it, though nothing is sent: a mistyped URL is said here too.
      commandLineBaseUrls(flags);
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const result = await cancelRun({ ...runtime, prefix: runtime.config.prefix }, runId, (upToMs) => {
          io.stderr.write(
            terminalSafe(
              `catalog-sync: run ${runId} was reading its source: checking that it still is (up to ${Math.round(upToMs / 1000)} s)\n`,
            ),
          );
        });
        switch (result.kind) {
          case 'refused':
            throw new UsageError(result.reason);
          case 'ending':
            io.stdout.write(
              terminalSafe(
                `run ${runId}: cancelling; ${result.inFlight} chunk(s) in progress on a worker finish ` +
                  `their rows first, then the run ends cancelled (catalog-sync status ${runId})\n`,
              ),
            );
            return;
          case 'cancelled': {
            io.stdout.write(formatSummary(result.run));
            const { sellerRef, sellerName } = result.run;
            const lifted = await liftMarksOfIdleSeller(
              { ...runtime, prefix: runtime.config.prefix },
              sellerRef,
              result.run.id,
            );
            const marks = [
              ...(lifted.keyRejected ? ['its rejected key (401)'] : []),
              ...(lifted.unreachable ? ['its API out of reach'] : []),
              ...(lifted.budget ? [`run ${result.run.id}'s daily budget`] : []),
            ];
            if (marks.length > 0) {
              const idle =
                lifted.keyRejected || lifted.unreachable ? 'nothing of it is queued any more; ' : '';
              io.stdout.write(
                terminalSafe(
                  `seller ${sellerLabel(sellerRef, sellerName)}: ${idle}no longer paused for ${marks.join(' or ')}\n`,
                ),
              );
            }
          }
        }
      });
    });
}
