import { resolve } from 'node:path';
import type { Command } from 'commander';
import pLimit from 'p-limit';
import { readApiConfig } from '../../config.js';
import { countOf } from '../../count-words.js';
import { RETRY_MAX_DELAY_MS } from '../../defaults.js';
import { deactivationsUndone } from '../../missing/deactivation-undone.js';
import { inRevertTurn } from '../../queue/revert-turn.js';
import type { RunInTheWay } from '../../queue/run-order.js';
import { sellerLabel } from '../../queue/seller-names.js';
import { revertLines, revertSummary } from '../../revert/lines.js';
import { type RevertResult, revertRun } from '../../revert/revert-run.js';
import type { RunRecord } from '../../runs/run-store.js';
import { NetworkError, SellerApiClient, SellerApiError } from '../../seller-api/index.js';
import { sellerRef } from '../../sellers/seller-ref.js';
import { afterTries, pauseOf, readRetry } from '../../sync/error-policy.js';
import { NoApiAtBaseUrlError, outOfReachText, type SellerPausedError } from '../../sync/seller-pause.js';
import { SendingStoppedError } from '../../sync/sending-stopped.js';
import { unreachedCause } from '../../sync/unreached.js';
import { terminalSafe, terminalSafeLine } from '../../terminal-safe.js';
import { readTrustRules } from '../../trust-config.js';
import { DEFAULT_KEY_ENV, keyEnvRefusal } from '../../trust-rules.js';
import { addConnectionOptions, type ConnectionFlags, runKeysFileHelp } from '../connection-options.js';
import { ExitCode } from '../exit-codes.js';
import { refuseRejectedKey } from '../key-pause.js';
import { parseConcurrency } from '../option-values.js';
import type { CliIo } from '../program.js';
import { dailyLimitLine, dryRunPausedLine, revertInterruptedLine } from '../revert-stop-lines.js';
import { noRunLine } from '../run-not-found.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { onInterrupt } from '../signals.js';
import { UsageError } from '../usage-error.js';

interface RevertFlags extends ConnectionFlags {
  dryRun: boolean;
  concurrency: number;
}

export function registerRevert(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('revert <run-id>'), {
    redis: true,
    keyEnvDefault: null,
    keyEnvHelp: "the variable that holds the run's key (default: the one the run was made with)",
  })
    .description(
      "puts back the values that a run's updates replaced; products it created are listed, not deleted (the API has no delete)",
    )
    .option('--dry-run', 'print what would be put back; write nothing', false)
    .option('--concurrency <n>', 'requests in flight to the Seller API at once', parseConcurrency, 8)
    .action(async (runId: string, flags: RevertFlags) => {
      // A replica is refused before anything is sent; an evicting Redis is not: revert adds no row to it.
      const options = {
        ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}),
        writes: { allowEviction: true },
      };
      io.exitCode = await withRuntime(io, options, (runtime) => revertCommand(io, runtime, runId, flags));
    });
}

async function revertCommand(
  io: CliIo,
  runtime: Runtime,
  runId: string,
  flags: RevertFlags,
): Promise<number> {
  const run = await revertableRun(runtime, runId);
  const api = readApiConfig(io.env, { ...flags, keyEnv: revertKeyEnv(io.env, run, flags.keyEnv) });
  const keyRef = await runtime.registry.resolveRef(sellerRef(api.baseUrl, api.apiKey));
  if (keyRef !== run.sellerRef) {
    const file = runKeysFileHelp(run, io.keysFile, 'give the --keys-file that holds its key');
    throw new UsageError(
      `run ${runId} is seller ${sellerLabel(run.sellerRef, run.sellerName)}'s; the key in ${api.keyEnv} for ${api.baseUrl} ` +
        `is seller ${keyRef}'s: nothing was read or sent; ${file}, or name the variable that holds its key with --key-env`,
    );
  }
  // This command's own options (its operator's), as the API was reached with them: a `resume` as is.
  const keysFile = io.keysFile ? resolve(io.keysFile.file) : undefined;
  await refuseRejectedKey(runtime, { ...run, baseUrl: api.baseUrl }, api.apiKey, api.keyEnv, {
    own: { baseUrl: api.baseUrl, allowInsecure: api.allowInsecure, keysFile },
  });
  // Ctrl-C (or SIGTERM) from here on is heard: nothing new is sent, the PUTs in flight finish, and
  // the command ends as any other (its turn among the seller's runs and its unused numbers of the
  // day given back, its requests counted), saying what it put back. Unheard, the launcher ended the
  // process at once with a bare line, leaving the turn to lapse (a minute) and the numbers held.
  const interrupt = onInterrupt(io.signals);
  try {
    return await revertHeard(io, runtime, run, api, flags, interrupt);
  } finally {
    interrupt.dispose();
  }
}

/** The revert once its interrupt is heard: read, put back, say what it did. */
async function revertHeard(
  io: CliIo,
  runtime: Runtime,
  run: RunRecord,
  api: ReturnType<typeof readApiConfig>,
  flags: RevertFlags,
  interrupt: ReturnType<typeof onInterrupt>,
): Promise<number> {
  const runId = run.id;
  const ref = run.sellerRef;
  // Paused on its daily limit: a dry run reads nothing (every read would meet the 429); a revert
  // says so once it has its turn, so that a run of the seller in its way is named first (exit 2).
  const pausedUntil = async () => (await runtime.sellers.status(ref, run.dailyReset)).pausedUntil;
  if (flags.dryRun) {
    const until = await pausedUntil();
    if (until !== null) return dryRunPausedLine(io, runId, until);
  }
  const limiter = pLimit(flags.concurrency);
  const retry = {
    retries: runtime.config.retries,
    baseDelayMs: runtime.config.retryBaseMs,
    maxDelayMs: RETRY_MAX_DELAY_MS,
  };
  const client = new SellerApiClient({
    ...api,
    dailyReset: run.dailyReset,
    logger: runtime.logger,
    // A read whose every try got no answer (refused, or closed unanswered): the API out of reach.
    retry: readRetry(retry, (error, tries) => afterTries(error, run.baseUrl, Date.now(), tries)),
    // Counted against the seller's day like a run's requests; none leaves once one answer said stop.
    schedule: (task) =>
      limiter(async () => {
        if (interrupt.signal.aborted) throw new SendingStoppedError(`revert of run ${runId}: interrupted`);
        runtime.sellers.assertNotPausedLocally(ref);
        const reserved = await runtime.sellers.reserveRequest(ref, run.dailyReset, null);
        try {
          return await task();
        } catch (error) {
          // Its connection was never made: the API did not count it, nor does the seller's day.
          if (error instanceof NetworkError && error.notSent)
            await reserved.notSent?.().catch(() => undefined);
          throw error;
        } finally {
          reserved.answered();
        }
      }),
    onRequest: (event) => {
      const pause = event.error && pauseOf(event.error);
      if (pause) runtime.sellers.pauseLocally(ref, pause);
    },
  });
  const deps = {
    ...runtime,
    client,
    retry,
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    now: Date.now,
    putBackDone: deactivationsUndone(runtime.redis, runtime.keys, ref),
  };
  let result: RevertResult;
  try {
    // A dry run writes nothing: it needs no turn among the seller's runs.
    if (flags.dryRun) result = await revertRun(deps, run, true);
    else {
      const turn = await inRevertTurn({ ...runtime, prefix: runtime.config.prefix }, run, async () => {
        const until = await pausedUntil();
        return until === null ? revertRun(deps, run, false) : { pausedUntil: until };
      });
      if ('inTheWay' in turn) throw new UsageError(await inTheWayText(runtime, run.id, turn.inTheWay));
      if ('pausedUntil' in turn.done) return dailyLimitLine(io, runId, turn.done.pausedUntil);
      result = turn.done;
    }
  } catch (error) {
    if (error instanceof SendingStoppedError) {
      io.stderr.write(
        `catalog-sync: interrupted (${interrupt.name}) before anything was put back: nothing was written; run it again\n`,
      );
      return interrupt.exitCode();
    }
    if (!(error instanceof SellerApiError) && !pauseOf(error)) throw error;
    return stoppedLine(io, runtime, run, api.keyEnv, error, null);
  }
  // What the API and Redis hold is shown, never obeyed by the terminal.
  const lines = [...revertLines(result, flags.dryRun), revertSummary(result, flags.dryRun)];
  io.stdout.write(terminalSafe(`${lines.join('\n')}\n`));
  if (result.stoppedBy instanceof SendingStoppedError) {
    io.stderr.write(terminalSafe(revertInterruptedLine(interrupt.name, run.id, result)));
    return interrupt.exitCode();
  }
  if (result.stoppedBy) return stoppedLine(io, runtime, run, api.keyEnv, result.stoppedBy, result);
  return result.products.some((p) => p.result === 'failed') ? ExitCode.rowsFailed : ExitCode.ok;
}

/**
 * The variable the run's key is read from: `--key-env`, else the one the run was made with, as
 * `approve` and the workers read it. That name comes from Redis: it is read only if this
 * environment allows it (trust-rules.ts), and named in the line that says it is unset.
 */
function revertKeyEnv(env: NodeJS.ProcessEnv, run: RunRecord, given: string | undefined): string {
  if (given !== undefined) return given;
  const recorded = run.keyEnv || DEFAULT_KEY_ENV;
  const refusal = keyEnvRefusal(recorded, readTrustRules(env));
  if (refusal)
    throw new UsageError(`run ${run.id} cannot be reverted here: ${refusal}; or name one with --key-env`);
  if (!env[recorded]?.trim())
    throw new UsageError(
      `${recorded} is not set: run ${run.id} was made with the key in it (set it, give it in --keys-file, or name another variable with --key-env)`,
    );
  return recorded;
}

/** The run, if `revert` may touch it: one line and exit 2 otherwise. */
async function revertableRun(runtime: Runtime, runId: string): Promise<RunRecord> {
  const run = await runtime.runs.get(runId);
  if (!run) throw new UsageError(noRunLine(runId, runtime.config));
  if (run.dryRun)
    throw new UsageError(`run ${runId} was a dry run: it wrote nothing, so there is nothing to revert`);
  // A held run writes nothing more unless approved, and a reverted one is never approved: what a
  // guard let through can be put back, the rows it held stay unsent.
  const state: string = run.state;
  if (state !== 'done' && state !== 'cancelled' && state !== 'held')
    throw new UsageError(`run ${runId} has not ended (${state}): revert it once it has`);
  return run;
}

/**
 * Why the revert does not begin: a run of the seller that it would race (revert-turn.ts), and what
 * to do. Nothing was read or sent.
 */
async function inTheWayText(runtime: Runtime, runId: string, found: RunInTheWay): Promise<string> {
  const other = found.runId;
  const order = "a seller's runs are written one after the other: nothing was read or sent";
  if (other === runId)
    return found.where === 'read'
      ? `run ${runId} is being reverted already (${order}); wait until that revert has ended`
      : `run ${runId} still has writes under way (${order}); wait until they have ended`;
  const state = (await runtime.runs.get(other))?.state;
  const ended = state === 'done' || state === 'cancelled' || state === 'held';
  if (found.where === 'read' && ended)
    return `run ${other} of the same seller is being reverted (${order}); wait until that revert has ended`;
  const what = { read: 'being read', active: 'being written', queued: 'queued' }[found.where];
  return `run ${other} of the same seller is ${what} (${order}); wait until it has ended, or \`catalog-sync cancel ${other}\``;
}

/** A 429, a 401 or an API out of reach stopped the revert: one line, exit 4, 3 or 6. */
async function stoppedLine(
  io: CliIo,
  runtime: Runtime,
  run: RunRecord,
  keyEnv: string,
  error: unknown,
  result: RevertResult | null,
): Promise<number> {
  const pause = pauseOf(error) as SellerPausedError | null;
  const done = result ? result.products.filter((p) => p.result === 'put').length : 0;
  const todo = result ? result.products.filter((p) => p.result !== 'nothing').length : 0;
  const progress = result
    ? `after ${done} of ${countOf(todo, 'product')} ${done === 1 ? 'was' : 'were'} put back`
    : 'before anything was put back';
  if (pause?.reason === 'unauthorized') {
    io.stderr.write(`catalog-sync: the key in ${keyEnv} was rejected (401) ${progress}\n`);
    return ExitCode.unauthorized;
  }
  const unreached = unreachedCause(error);
  if (unreached !== null || pause?.reason === 'unreachable') {
    // The pause's own message is outOfReachText's, as `run` says it.
    const line =
      unreached === null
        ? (pause as SellerPausedError).message
        : outOfReachText(run.baseUrl, unreached, false);
    io.stderr.write(`catalog-sync: ${terminalSafeLine(line)} ${progress}\n`);
    // No API under the run's base URL (it moved): a configuration error, exit 2 as `run`'s.
    return pause instanceof NoApiAtBaseUrlError ? ExitCode.usage : ExitCode.apiUnreachable;
  }
  if (pause?.until != null) {
    // Every worker of this seller waits for the reset too.
    await runtime.sellers.pauseUntil(run.sellerRef, pause.until, 'daily-limit');
    return dailyLimitLine(io, run.id, pause.until, progress);
  }
  io.stderr.write(
    `catalog-sync: ${terminalSafeLine(error instanceof Error ? error.message : String(error))}\n`,
  );
  return ExitCode.usage;
}
