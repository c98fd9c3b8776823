import type { Command } from 'commander';
import { cancelRun } from '../../queue/cancel-run.js';
import { liftMarksOfIdleSeller } from '../../queue/idle-seller-marks.js';
import { sellerLabel } from '../../queue/seller-names.js';
import { formatSummary } from '../../runs/summary.js';
import { sellerRef } from '../../sellers/seller-ref.js';
import { terminalSafe } from '../../terminal-safe.js';
import { checkKeyEnv, readCheckedKey, readTrustRules } from '../../trust-config.js';
import type { TrustRules } from '../../trust-rules.js';
import { addConnectionOptions, type ConnectionFlags, commandLineBaseUrls } from '../connection-options.js';
import type { CliIo } from '../program.js';
import { noRunLine } from '../run-not-found.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

export function registerCancel(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('cancel <run-id>'), {
    redis: true,
    keyEnvDefault: null,
    keyEnvHelp:
      "a variable holding the key of the run's seller: another seller's key is refused (no default: cancel needs no key)",
  })
    .description('ends a queued or paused run: jobs removed, unsettled rows reported skipped (cancelled)')
    .addHelpText(
      'after',
      [
        '',
        'Rows already settled keep their outcome; the others are reported `skipped` with error',
        '`cancelled`, and the run ends as cancelled with its full report (`catalog-sync report`).',
        'Its --missing deactivations still queued (the daily limit met, an approve under way) are not',
        'sent either: `deactivate` lines with status `failed`, error `cancelled`.',
        'A run a live worker is working on: what is still queued is removed at once; the chunk',
        'in progress finishes its rows (a write is never cut in half), then the run ends cancelled.',
        'A run already done, or unknown, is refused (exit 2).',
        'When no other run of its seller is queued, the seller is no longer shown paused for a',
        'rejected key (401) or an API out of reach: a mistyped key or base URL leaves nothing behind.',
        'It sends nothing to the Seller API: it takes the connection options of the other commands',
        '(--base-url, --keys-file, …) so that one set of them serves every command of a script.',
        "Given --key-env, a key in it of another seller than the run's is refused (exit 2), as approve",
        'and revert refuse it: the run of the seller meant is not the one named. Without --key-env, no',
        'key is read (SELLER_API_KEY is not looked at): anyone with access to the Redis may cancel.',
      ].join('\n'),
    )
    .action(async (runId: string, flags: ConnectionFlags) => {
      // Checked as every command checks it, though nothing is sent: a mistyped URL is said here too.
      const rules = readTrustRules(io.env, commandLineBaseUrls(flags));
      if (flags.keyEnv !== undefined) checkKeyEnv(flags.keyEnv, rules);
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        if (flags.keyEnv !== undefined)
          await refuseOtherSellersKey(runtime, runId, flags.keyEnv, io.env, rules);
        const result = await cancelRun({ ...runtime, prefix: runtime.config.prefix }, runId, (upToMs) => {
          io.stderr.write(
            terminalSafe(
              `catalog-sync: run ${runId} was reading its source: checking that it still is (up to ${Math.round(upToMs / 1000)} s)\n`,
            ),
          );
        });
        switch (result.kind) {
          case 'refused':
            throw new UsageError(result.unknown ? noRunLine(runId, runtime.config) : result.reason);
          case 'ending':
            io.stdout.write(
              terminalSafe(
                `run ${runId}: cancelling; ${result.inFlight} chunk(s) in progress on a worker finish ` +
                  `their rows first, then the run ends cancelled (catalog-sync status ${runId})\n`,
              ),
            );
            return;
          case 'cancelled': {
            io.stdout.write(formatSummary(result.run, { allowedHosts: rules.hosts }));
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

/**
 * `--key-env` is this command line's word for which seller's run is meant: a key in it of another
 * seller than the run's is refused, as approve and revert refuse it. Only when given: cancel sends
 * nothing and needs no key, and the environment's SELLER_API_KEY (a default, maybe another seller's
 * in a shell serving many) says nothing of the run. A variable that holds no key has nothing to
 * compare; an unknown run is left to cancelRun's own refusal.
 */
async function refuseOtherSellersKey(
  runtime: Runtime,
  runId: string,
  keyEnv: string,
  env: NodeJS.ProcessEnv,
  rules: TrustRules,
): Promise<void> {
  const key = readCheckedKey(env, keyEnv, rules);
  if (key === undefined) return;
  const run = await runtime.runs.get(runId);
  if (!run || (await runtime.registry.resolveRef(sellerRef(run.baseUrl, key))) === run.sellerRef) return;
  throw new UsageError(
    terminalSafe(
      `$${keyEnv} holds another seller's key than run ${runId}'s: not cancelled ` +
        '(cancel needs no key: without --key-env it cancels any run)',
    ),
  );
}
