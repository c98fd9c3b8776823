import type { Command } from 'commander';
import { countOf } from '../../count-words.js';
import { parseDuration, unitlessLine } from '../../duration.js';
import { webhookOrigin } from '../../notify/webhook-url.js';
import { projectRoot } from '../../project-root.js';
import { delayedChunksOf } from '../../queue/delayed-chunks.js';
import { readerStopped } from '../../queue/producing-mark.js';
import { runWaitedFor } from '../../queue/run-order.js';
import { sellerLabel } from '../../queue/seller-names.js';
import { describeMemory } from '../../redis/server-info.js';
import { stopNote } from '../../revert/stop-record.js';
import { approvedRowsText } from '../../runs/approval-phase.js';
import { approveLine } from '../../runs/approve-hint.js';
import { resumeCommand } from '../../runs/connection-words.js';
import type { RunRecord } from '../../runs/run-store.js';
import {
  deactivationText,
  incrementalLine,
  missingNotAppliedLine,
  notAppliedLine,
  REQUESTS_AT_LEAST_WHY,
  requestCount,
  rowOutcomes,
  runCounts,
  stillOffLine,
  wouldHoldLine,
} from '../../runs/summary.js';
import type { SellerStatus } from '../../sellers/seller-status.js';
import { jsonTerminalSafe, terminalSafe } from '../../terminal-safe.js';
import { readTrustRules } from '../../trust-config.js';
import type { AllowedHost } from '../../trust-rules.js';
import type { CliIo } from '../program.js';
import { latestRunOf, listedRunLine, listRuns, sellerRefsOf } from '../run-list.js';
import { noRunLine, noRunYetLine, runsPlace } from '../run-not-found.js';
import { runStateText } from '../run-state-text.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';
import { keyLinkWaitText, waitsForKeyLink, waitsForWorker, workerWaitText } from '../worker-wait.js';

export function registerStatus(program: Command, io: CliIo): void {
  program
    .command('status [run-id]')
    .description("a run's state and counts (latest run when no id); --list: the runs of the last day")
    .option('--json', 'print one JSON object instead of text', false)
    .option(
      '--seller <name>',
      'the latest run of this seller (a name, or the ref status prints); with --list, its runs only',
    )
    .option('--list', 'one line per run created in the last --since, newest first', false)
    .option('--since <duration>', 'with --list: how far back (`24h`, `7d`; runs are kept 7 days)', '24h')
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .action(async (runId: string | undefined, flags: StatusFlags, command: Command) => {
      const since = listSince(runId, flags, command.getOptionValueSource('since') === 'cli');
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const refs = flags.seller === undefined ? null : await sellerRefsOf(runtime, flags.seller);
        if (refs !== null && refs.length === 0)
          throw new UsageError(
            `--seller ${terminalSafe(flags.seller ?? '')}: no such seller has a run or a queue here`,
          );
        if (since !== null) {
          const runs = await listRuns(runtime, Date.now() - since, refs, Date.now());
          if (flags.json) io.stdout.write(`${jsonTerminalSafe(JSON.stringify(runs))}\n`);
          else if (runs.length === 0) io.stdout.write(`no run in the last ${flags.since}\n`);
          else io.stdout.write(terminalSafe(`${runs.map(listedRunLine).join('\n')}\n`));
          return;
        }
        const id = runId ?? (refs ? await latestRunOf(runtime, refs) : await runtime.runs.latestId());
        if (!id)
          throw new UsageError(
            refs
              ? `no run of seller ${terminalSafe(flags.seller ?? '')} in ${runsPlace(runtime.config)} (runs are kept 7 days)`
              : noRunYetLine(runtime.config, projectRoot()),
          );
        const run = await runtime.runs.get(id);
        if (!run) throw new UsageError(noRunLine(id, runtime.config));
        const seller = await runtime.sellers.status(run.sellerRef, run.dailyReset);
        const counts = runCounts(run);
        const info = await runtime.serverInfo();
        const redis = info && { usedMemory: info.usedMemory, maxmemory: info.maxmemory, policy: info.policy };
        // Its source left unread by a process that stopped: a run that never ends by itself.
        const stopped = await readerStopped(runtime, run);
        const state = runStateText(run, seller, Date.now(), stopped);
        const waitingForWorker = await waitsForWorker(runtime.commands, runtime.keys, run);
        // A worker that served the seller until its keys file changed the key: `resume` links the new one.
        const waitingForKeyLink = await waitsForKeyLink(runtime.commands, runtime.keys, run);
        // A seller's runs are written in the order they were created (run-order.ts).
        const waitsForRun =
          run.state === 'queued' || run.state === 'running'
            ? await runWaitedFor({ ...runtime, now: Date.now }, run.sellerRef, run.id)
            : null;
        // A worker holding a key the API rejected (401) sends nothing with it: the run waits, unsaid otherwise.
        const rejectedKeys = await runtime.sellers.rejectedKeys.count(run.sellerRef);
        const keysLine = await rejectedKeysLine(runtime, run, seller.authRejected, rejectedKeys, io.env);
        if (flags.json) {
          const { id: _id, ...rest } = run;
          // A webhook URL may hold a token (Slack's is in its path): its origin says which hook it is.
          if (rest.notify) rest.notify = webhookOrigin(rest.notify);
          io.stdout.write(
            `${jsonTerminalSafe(JSON.stringify({ id, ...rest, sellerName: run.sellerName ?? null, stateText: state, readerStopped: stopped, waitsForRun, waitingForWorker, waitingForKeyLink, rejectedKeys, counts, seller, redis }))}\n`,
          );
          return;
        }
        const deactivations = deactivationText(counts);
        // What Redis holds (source, preset) is shown, never obeyed by the terminal.
        io.stdout.write(
          terminalSafe(
            [
              `run ${id}: ${state}${run.dryRun ? ' (dry run)' : ''}`,
              `  source    ${run.source} (preset ${run.preset})`,
              `  rows      ${run.settled} settled of ${run.total}${run.produced ? '' : ' read so far'}${approvedRowsText(run, Date.now())}`,
              ...(waitsForRun
                ? [
                    `  order     waits for run ${waitsForRun} of this seller to end: a seller's runs are written in the order they were created`,
                  ]
                : []),
              ...(waitingForKeyLink
                ? [`  waiting   ${keyLinkWaitText(run, { allowedHosts: allowedHostsHere(io.env) })}`]
                : waitingForWorker
                  ? [`  waiting   ${workerWaitText(run)}`]
                  : []),
              ...(keysLine ? [`  keys      ${keysLine}`] : []),
              `  outcome   ${rowOutcomes(run, counts)}, ${counts.missing} missing`,
              ...[notAppliedLine(counts), stillOffLine(counts), incrementalLine(run)].filter(
                (line) => line !== null,
              ),
              ...(deactivations ? [`  deactivate ${deactivations} (--missing)`] : []),
              ...[missingNotAppliedLine(run), wouldHoldLine(run)].filter((line) => line !== null),
              ...(run.state === 'held'
                ? [approveLine(run, counts, { allowedHosts: allowedHostsHere(io.env) })].filter(
                    (line) => line !== null,
                  )
                : []),
              `  requests  ${requestCount(run, run.requests)} by this run${run.requestsAtLeast ? ` (${REQUESTS_AT_LEAST_WHY})` : ''}; ${sellerTodayText(seller)} for seller ${sellerLabel(run.sellerRef, run.sellerName)}${reservedText(seller)}`,
              ...revertLines(run),
              ...(info ? [`  redis     ${describeMemory(info)}, maxmemory-policy ${info.policy}`] : []),
              '',
            ].join('\n'),
          ),
        );
      });
    });
}

/**
 * The hosts this environment allows a base URL on (SELLER_API_BASE_URL's, CATALOG_SYNC_API_HOSTS):
 * a held run's `approve` line carries the base URL and keys file its record in Redis names only on
 * one of them, where they are no new trust. A bad list allows none: `status` sends nothing, so it
 * still answers, and the line says in words what to give.
 */
function allowedHostsHere(env: NodeJS.ProcessEnv): readonly AllowedHost[] {
  try {
    return readTrustRules(env).hosts;
  } catch (error) {
    if (error instanceof UsageError) return [];
    throw error;
  }
}

/** The seller's requests of the day sent, as counted: "5 today", "at least 5 today" while blocks are held. */
function sellerTodayText(seller: SellerStatus): string {
  return `${seller.requestsReserved ? 'at least ' : ''}${seller.requestsToday} today`;
}

/**
 * The numbers held in blocks, which the day's count leaves out until their chunks end. Only a count
 * is stored, not who holds them: a process killed with a block leaves it held for the rest of the
 * quota day, with nothing under way, so the text names both.
 */
export function reservedText(seller: Pick<SellerStatus, 'requestsReserved'>): string {
  const held = seller.requestsReserved ?? 0;
  return held > 0
    ? ` (and up to ${held} more reserved, by chunks under way or by a process that stopped before giving them back: not all sent)`
    : '';
}

interface StatusFlags {
  json: boolean;
  seller?: string;
  list: boolean;
  since: string;
  redisUrl?: string;
}

/** `--list`'s reach in ms, or null for one run; a combination that asks two things is refused. */
function listSince(runId: string | undefined, flags: StatusFlags, sinceGiven: boolean): number | null {
  if (!flags.list) {
    if (sinceGiven) throw new UsageError('--since goes with --list');
    if (runId !== undefined && flags.seller !== undefined)
      throw new UsageError('give a run id or --seller, not both');
    return null;
  }
  if (runId !== undefined) throw new UsageError('--list lists runs: give no run id with it');
  const unitless = unitlessLine('--since', flags.since, 'h');
  if (unitless) throw new UsageError(unitless);
  const since = parseDuration(flags.since);
  if (since === null)
    throw new UsageError(`--since ${terminalSafe(flags.since)}: not a duration (e.g. 24h, 7d)`);
  return since;
}

/**
 * What a run of a seller with keys the API rejected (401) waits for, or null when it waits for none.
 * Paused by the 401: the working key, then `resume`. Resumed since (with another key, or the
 * rejected key met again and not sent): the rejected keys are listed still, so that no worker sends
 * with one, but the run waits only if a worker holding one put its chunks off (for a minute, or
 * until that worker's keys file changes): `resume` again would change nothing.
 */
async function rejectedKeysLine(
  runtime: Runtime,
  run: RunRecord,
  paused: boolean,
  count: number,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  if (count === 0 || run.state === 'done' || run.state === 'cancelled') return null;
  const keys = `${countOf(count, 'key')} of this seller rejected by the API (401)`;
  if (paused) {
    // Read from Redis: its base URL and keys file are a command only on a host this environment allows.
    const resume = resumeCommand(run, run.keyEnv, { allowedHosts: allowedHostsHere(env) });
    return `${keys}: a worker holding one sends nothing. Put the working key in $${run.keyEnv}, then ${resume}`;
  }
  const queue = runtime.keys.sellerQueue(run.sellerRef);
  const putOff = await delayedChunksOf(runtime.commands, runtime.config.prefix, queue, run.id);
  if (!putOff) return null;
  return (
    `${keys}, not sent by a worker holding it: ${countOf(putOff.count, 'chunk')} of this run put off ` +
    `until ${new Date(putOff.firstDueAt).toISOString()}, or until that worker's --keys-file changes ` +
    '(a key in its environment takes a restart); the seller is not paused'
  );
}

/** One `reverted` line per revert of the run, oldest first; a note first when older ones are no longer kept. */
function revertLines(run: RunRecord): string[] {
  const lines = (run.reverts ?? []).map(({ at, counts }) => `  reverted  ${revertedText(at, counts)}`);
  if (run.revertsDropped)
    lines.unshift(
      `  reverted  ${countOf(run.revertsDropped, 'earlier revert', 'earlier reverts')} not listed`,
    );
  return lines;
}

/** `reverted at 2026-…Z: 3 products put back, 1 field left alone, 2 created products listed` */
function revertedText(at: number, counts: Record<string, number>): string {
  const count = (name: string) => counts[name] ?? 0;
  const parts = [`${countOf(count('reverted'), 'product')} put back`];
  if (count('alreadyBack') > 0) parts.push(`${count('alreadyBack')} already as before`);
  if (count('failed') > 0) parts.push(`${count('failed')} failed`);
  parts.push(`${countOf(count('fieldsKept'), 'field')} left alone`);
  parts.push(`${countOf(count('created'), 'created product')} listed`);
  // Stopped half way (revert-run.ts): the products it had not put back yet, and why.
  const stopped = stopNote(counts);
  if (stopped !== null) parts.push(`${count('left')} left (${stopped})`);
  return `reverted at ${new Date(at).toISOString()}: ${parts.join(', ')}`;
}
