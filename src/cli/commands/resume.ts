import type { Command } from 'commander';
import { keyHolderText, sellerLabel } from '../../queue/seller-names.js';
import type { KeyHolder } from '../../sellers/key-holder.js';
import type { SellerInfo } from '../../sellers/seller-registry.js';
import { terminalSafeLine } from '../../terminal-safe.js';
import { checkKeyEnv, readCheckedKey, readTrustRules } from '../../trust-config.js';
import {
  addConnectionOptions,
  type ConnectionFlags,
  commandLineBaseUrls,
  recordedBaseUrlRefusal,
} from '../connection-options.js';
import { ExitCode } from '../exit-codes.js';
import { liftKeyPause } from '../key-pause.js';
import type { CliIo } from '../program.js';
import { pausedSellersOfKey } from '../resume-target.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

interface ResumeFlags extends ConnectionFlags {
  seller?: string;
  keyEnv: string;
}

export function registerResume(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('resume'), {
    redis: true,
    keyEnvHelp: 'the variable that holds the fixed (or new) key; it is checked first',
  })
    .description('lifts a pause left by a rejected key (401), once the key is fixed')
    .option(
      '--seller <name|ref>',
      'the seller (its name, or the ref printed when the key was rejected; default: the paused seller the key serves, else the one whose queued runs read --key-env; without a key, every paused seller)',
    )
    .addHelpText(
      'after',
      [
        '',
        'A new key (a revoked one replaced) is linked to the paused seller, so it keeps its queue and',
        'id map; with --seller, also to a seller not paused (a dry run found its key rejected, or a',
        "key was rotated in a worker's --keys-file). A key that already serves another seller (one with a",
        'name, runs or products recorded, even if every product it found was there before it; dry runs',
        'do not count) is never linked: the seller stays paused, and one line names its queued run to',
        'cancel (a mistyped key is fixed by cancelling that run and running the import again with the',
        'right key).',
        'Without --seller, a key goes to no paused seller but its own: the one it already serves, else the',
        'one paused seller with a queued run made with --key-env; several such, or none: one line asks',
        'for --seller (exit 2), and nothing is linked or resumed.',
      ].join('\n'),
    )
    .action(async (flags: ResumeFlags) => {
      // A paused seller's base URL is read from Redis: the key goes there only on a host this
      // environment, or this command line (--base-url), allows.
      const rules = readTrustRules(io.env, commandLineBaseUrls(flags));
      checkKeyEnv(flags.keyEnv, rules);
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const registered = await runtime.registry.registered();
        const apiKey = readCheckedKey(io.env, flags.keyEnv, rules);
        const sellers = await sellersToResume(runtime, registered, flags, apiKey);
        let resumed = 0;
        for (const seller of sellers) {
          // Seller refs are read from Redis: shown, never obeyed by the terminal.
          const ref = terminalSafeLine(sellerLabel(seller.ref, seller.name));
          // The seller's base URL was read from Redis: the key goes there only if this environment allows its host.
          const result = await liftKeyPause(runtime, seller, apiKey, {
            ...flags,
            baseUrlRefusal: (url) => recordedBaseUrlRefusal(url, rules),
            sellerNamed: flags.seller !== undefined,
          });
          switch (result.kind) {
            case 'not-paused':
              break;
            case 'refused':
              io.stderr.write(`catalog-sync: seller ${ref} stays paused: its base URL's ${result.reason}\n`);
              io.exitCode = ExitCode.usage;
              break;
            case 'key-taken':
              io.stderr.write(
                `${terminalSafeLine(keyTakenLine(flags.keyEnv, result.by, ref, result.queuedRuns))}\n`,
              );
              io.exitCode = ExitCode.usage;
              break;
            case 'still-rejected':
              io.stderr.write(
                `catalog-sync: the key in ${flags.keyEnv} is rejected too (401): seller ${ref} stays paused\n`,
              );
              io.exitCode = ExitCode.unauthorized;
              break;
            case 'unreachable':
              if (result.apiDown) {
                // As `ping`: no verdict on the key, nothing to fix here but to wait for the API.
                io.stderr.write(
                  `catalog-sync: ${terminalSafeLine(result.reason)}: the key in ${flags.keyEnv} could not be checked; ` +
                    `nothing was linked or resumed for seller ${ref}: run \`resume\` again once the API answers\n`,
                );
                io.exitCode = ExitCode.apiUnreachable;
              } else {
                io.stderr.write(
                  `catalog-sync: cannot check the key: ${terminalSafeLine(result.reason)}; nothing was linked or resumed for seller ${ref}\n`,
                );
                io.exitCode = ExitCode.usage;
              }
              break;
            case 'resumed':
              resumed++;
              if (!result.checked) {
                io.stderr.write(
                  `catalog-sync: ${flags.keyEnv} is not set: seller ${ref} resumed without checking its key\n`,
                );
              }
              if (result.linked)
                io.stdout.write(`seller ${ref}: the key in ${flags.keyEnv} now serves this seller\n`);
              // What a worker does next: one holding a rejected key sends nothing with it
              // (rejected-keys.ts); --keys-file is read again when it changes, an environment is not.
              io.stdout.write(
                `seller ${ref}: resumed; its queued rows go on with the next \`run\` of their source, or any ` +
                  `\`worker\` holding a key of it not rejected (a worker reads its --keys-file again when ` +
                  'the file changes; a key in its environment takes a restart)\n',
              );
          }
        }
        if (resumed === 0 && io.exitCode === ExitCode.ok) io.stdout.write('no seller was paused\n');
      });
    });
}

/**
 * `--seller`'s seller; else, given a key, the paused sellers it is for (resume-target.ts: never
 * another's); without a key, every seller (each resumed unchecked if paused: nothing is linked).
 */
async function sellersToResume(
  runtime: Runtime,
  registered: SellerInfo[],
  flags: ResumeFlags,
  apiKey: string | undefined,
): Promise<SellerInfo[]> {
  if (flags.seller !== undefined) {
    const chosen = registered.filter((s) => s.ref === flags.seller || s.name === flags.seller);
    if (chosen.length === 0) throw new UsageError(`no seller ${flags.seller} is known to this Redis`);
    return chosen;
  }
  return apiKey === undefined ? registered : pausedSellersOfKey(runtime, registered, apiKey, flags.keyEnv);
}

/**
 * A working key that already serves another seller is not linked to the paused one: the way out
 * is to drop the paused seller's queued runs (a mistyped key's) and run the import again with the
 * key, under its own seller, whose id map knows what was created before.
 */
function keyTakenLine(keyEnv: string, holder: KeyHolder, ref: string, queuedRuns: string[]): string {
  const refused = `catalog-sync: the key in ${keyEnv} is already ${keyHolderText(holder)}: not linked to seller ${ref}, which stays paused`;
  if (queuedRuns.length === 0)
    return `${refused} (nothing of it is queued); run the import again with this key`;
  const cancels = queuedRuns.map((id) => `catalog-sync cancel ${id}`).join(', ');
  const its = queuedRuns.length === 1 ? 'its queued run' : 'its queued runs';
  return `${refused}; if its key was mistyped, drop ${its} (${cancels}) and run the import again with this key`;
}
