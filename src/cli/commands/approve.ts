import type { Command } from 'commander';
import { insecureRunRefusal } from '../../chunks/insecure-run.js';
import { countOf } from '../../count-words.js';
import { type Approved, parseRowList, queueApproval } from '../../queue/approval.js';
import { noteApprovalResumed } from '../../queue/approval-takeover.js';
import { approvalUnderWayLine } from '../../queue/approval-under-way.js';
import { sellerLabel } from '../../queue/seller-names.js';
import type { RunRecord } from '../../runs/run-store.js';
import { formatSummary } from '../../runs/summary.js';
import { sellerRef } from '../../sellers/seller-ref.js';
import { outOfReachText } from '../../sync/seller-pause.js';
import { terminalSafe } from '../../terminal-safe.js';
import { readCheckedKey, readTrustRules } from '../../trust-config.js';
import { type KeysFileNames, keyEnvRefusal, missingKeyLine } from '../../trust-rules.js';
import { approveInterruptedLine } from '../approve-interrupted.js';
import { closeWithinDeadline } from '../close-deadline.js';
import {
  addConnectionOptions,
  type ConnectionFlags,
  commandLineBaseUrls,
  recordedBaseUrlRefusal,
  runKeysFileHelp,
} from '../connection-options.js';
import { ExitCode } from '../exit-codes.js';
import { refuseRejectedKey } from '../key-pause.js';
import { parseConcurrency } from '../option-values.js';
import type { CliIo } from '../program.js';
import { createProgressView, pausedMessage } from '../progress.js';
import { noRunLine } from '../run-not-found.js';
import { endedRunExitCode, pauseCause, waitingLine } from '../run-outcome.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { BeforeRun, onInterrupt } from '../signals.js';
import { UsageError } from '../usage-error.js';
import { waitForRun } from '../wait-for-run.js';
import { startSellerWorkers } from '../worker-deps.js';

interface ApproveFlags extends ConnectionFlags {
  rows?: number[];
  concurrency: number;
  wait: boolean;
}

export function registerApprove(program: Command, io: CliIo): void {
  addConnectionOptions(program.command('approve <run-id>'), {
    redis: true,
    keyEnvDefault: null,
    keyEnvHelp: "the variable that holds the run's key (default: the one the run was made with)",
  })
    .description(
      "sends the writes that a guard held back (re-checked against the seller's products as they are then)",
    )
    .option(
      '--rows <list>',
      'only these held data rows, e.g. 3,7 (default: every held row, and the held deactivations of --missing, which have no row number)',
      parseRowList,
    )
    .option('--concurrency <n>', 'requests in flight to the Seller API at once', parseConcurrency, 8)
    .option('--no-wait', 'on a daily-limit pause, exit 4 at once (the approved rows stay queued)')
    .action(async (runId: string, flags: ApproveFlags) => {
      // Checked before Redis is: a mistyped --base-url is said as itself.
      const vouched = commandLineBaseUrls(flags);
      // Heard from the start (CliIo.signals), as `run` hears them: unheard, Node's default ended the
      // process silently (exit 130, no line), leaving a cron mail to guess what state the run is in.
      const before = new BeforeRun(BEFORE_THE_APPROVAL, io.signals);
      try {
        const options = { ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}), before };
        await withRuntime(io, options, async (runtime) => {
          io.exitCode = await approve(io, runtime, runId, flags, vouched, before);
        });
      } finally {
        before.handOver();
      }
    });
}

/** The line's words for an `approve` interrupted before it marked the run approved. */
export const BEFORE_THE_APPROVAL = 'before the approval began: nothing was approved, queued or sent';

/** Like `run`, in this process: queue the held writes, serve them, wait, say what became of them. */
async function approve(
  io: CliIo,
  runtime: Runtime,
  runId: string,
  flags: ApproveFlags,
  vouched: readonly string[],
  before: BeforeRun,
): Promise<number> {
  const run = await runtime.runs.get(runId);
  if (!run) throw new UsageError(noRunLine(terminalSafe(runId), runtime.config));
  // The run's base URL was read from Redis: --base-url, when given, vouches for it (it must be it).
  if (vouched.length > 0 && vouched[0] !== run.baseUrl)
    throw new UsageError(`run ${run.id} was made for ${run.baseUrl}, not for --base-url ${vouched[0]}`);
  await checkKeyFor(io, runtime, run, flags.keyEnv ?? run.keyEnv, vouched, flags.allowInsecure);
  const queued = approvalQueued(run);
  if (queued && flags.rows)
    throw new UsageError(
      approvalUnderWayLine(
        run.id,
        flags.rows,
        'its writes are queued',
        'if that approve was stopped, they go on with any `catalog-sync worker`',
      ),
    );
  before.check();
  // Ctrl-C (or SIGTERM) from here on: said, exit 130/143, as `run` does. While the writes are being
  // queued (Redis alone, short) the queueing is let finish, never left half done: the line can then
  // say where they are (queued, for a worker or the next approve), not leave the next approve to
  // wait out the heartbeat's silence (approval-beat.ts) to tell a stopped approval from one queueing.
  const interrupt = onInterrupt(io.signals);
  before.handOver();
  try {
    return await approveQueued(io, runtime, run, flags, vouched, queued, interrupt);
  } finally {
    interrupt.dispose();
  }
}

/** `approve` once its signals are its own: queue the approval (or take it over), serve it, wait. */
async function approveQueued(
  io: CliIo,
  runtime: Runtime,
  run: RunRecord,
  flags: ApproveFlags,
  vouched: readonly string[],
  queued: boolean,
  interrupt: ReturnType<typeof onInterrupt>,
): Promise<number> {
  const deps = { ...runtime, prefix: runtime.config.prefix };
  // An approve stopped (Ctrl-C, killed) once its writes were queued: this one serves them.
  const approved = queued ? null : await queueApproval(deps, run, flags.rows ?? null);
  if (queued) {
    // The approval's time is this approve's from now on (runs/summary.ts), not the stopped one's.
    await noteApprovalResumed(deps, run.id);
    say(io, `catalog-sync: the writes of run ${run.id}'s approval are queued already: sending them\n`);
  }
  if (approved?.resumed) {
    say(
      io,
      `catalog-sync: an earlier approve of run ${run.id} stopped before it had queued its writes: finishing it\n`,
    );
  }
  if (interrupt.signal.aborted) {
    say(io, await approveInterruptedLine(runtime, interrupt.name, run.id, Promise.resolve()));
    return interrupt.exitCode();
  }
  const workers = startSellerWorkers(
    runtime,
    io.env,
    flags.concurrency,
    { baseUrls: vouched, allowInsecure: flags.allowInsecure },
    // Interrupted, nothing new is sent: the writes in flight settle, the rest stay queued.
    { command: 'approve', stopSending: interrupt.signal },
  );
  workers.serve({
    ref: run.sellerRef,
    baseUrl: run.baseUrl,
    queueName: runtime.keys.sellerQueue(run.sellerRef),
  });
  try {
    const progress = createProgressView(io.stderr, runtime.logger, false);
    // Said in words, as `run` says it, not only in a JSON log line: a cron mail shows why nothing moves.
    const onWaiting = async (waiting: RunRecord, until: number) => {
      say(io, await waitingLine(runtime, waiting, waiting.id, until, 'approve'));
    };
    const waitOptions = { wait: flags.wait, progress, onWaiting, signal: interrupt.signal };
    const waited = await waitForRun(runtime, run.id, waitOptions);
    switch (waited.kind) {
      case 'stopped':
        // Said once the writes in flight have settled: the line counts what the record says.
        say(io, await approveInterruptedLine(runtime, interrupt.name, run.id, workers.close()));
        return interrupt.exitCode();
      case 'unauthorized':
        say(
          io,
          `catalog-sync: the API key was rejected (401). The approved rows of run ${run.id} stay queued.\n`,
        );
        return ExitCode.unauthorized;
      case 'paused':
        say(
          io,
          `catalog-sync: ${pausedMessage(waited.until, Date.now())} on ${await pauseCause(runtime, run, run.id)}. ` +
            `The approved rows of run ${run.id} stay queued and resume with any \`catalog-sync worker\`.\n`,
        );
        return ExitCode.pausedDailyLimit;
      case 'unreachable':
        // No API under the run's base URL (it moved): as `run` says it, exit 2; waiting will not help.
        say(
          io,
          `catalog-sync: ${outOfReachText(run.baseUrl, waited.failure, waited.noApi)}. The approved rows of run ${run.id} ` +
            (waited.noApi
              ? `stay queued, none sent: drop them with catalog-sync cancel ${run.id}, then run the import again with the right base URL.\n`
              : 'stay queued and go on with any `catalog-sync worker` once the API answers.\n'),
        );
        return waited.noApi ? ExitCode.usage : ExitCode.apiUnreachable;
      case 'held':
      case 'done': {
        if (approved) io.stdout.write(`${terminalSafe(approvedLine(approved, run.id))}\n`);
        // Read back from Redis: its options are printed as a command only on a host allowed here.
        const allowedHosts = readTrustRules(io.env, vouched).hosts;
        io.stdout.write(formatSummary(waited.run, { allowedHosts }));
        // As `run` would end on the same state: rows invalid or failed, earlier or now, are exit 1.
        return endedRunExitCode(io, runtime, waited.run);
      }
    }
  } finally {
    // As `run`'s: a chunk that cannot finish (no answer, Redis gone) is left to its lock's end.
    await closeWithinDeadline(runtime, workers.close());
  }
}

/**
 * True when an approval of the run queued all its writes and the run is still running them: the
 * approve that queued them may have been stopped (Ctrl-C, killed) before they were sent, leaving them
 * to a worker; another `approve` serves them as well (a chunk is taken by one process at a time).
 */
function approvalQueued(run: RunRecord): boolean {
  return run.state === 'running' && run.approvedAt !== undefined && run.approvalUnqueued !== true;
}

/** `1 held row and 2 held deactivations of run <id>`, then the rows a later run superseded, if any. */
function approvedLine(approved: Approved, runId: string): string {
  const rows = countOf(approved.rows, 'held row');
  const what =
    approved.deactivations > 0 ? `${rows} and ${countOf(approved.deactivations, 'held deactivation')}` : rows;
  return `approved ${what} of run ${runId}${supersededText(approved.superseded)}`;
}

/**
 * `; 2 superseded by run <id>, whose source has them: not written` (as each row's note says it), ''
 * when none was.
 */
function supersededText(byRun: ReadonlyMap<string, number>): string {
  const total = [...byRun.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return '';
  const [only] = byRun.keys();
  if (byRun.size === 1 && only !== undefined)
    return `; ${total} superseded by run ${only}, whose source has ${total === 1 ? 'it' : 'them'}: not written`;
  return `; ${total} superseded by ${byRun.size} later runs, whose sources have them: not written (the report's note names each)`;
}

/**
 * The run's key, read as a worker reads it (the variable the run recorded, allowed by this
 * environment, or the one `--key-env` names; the base URL allowed by the environment or
 * `--base-url`): checked before anything is queued, so a missing key is one line, not a wait.
 */
async function checkKeyFor(
  io: CliIo,
  runtime: Runtime,
  run: RunRecord,
  keyEnv: string,
  vouched: readonly string[],
  allowInsecure: boolean,
): Promise<void> {
  const rules = readTrustRules(io.env, vouched);
  // Said here, before anything is queued, rather than by this process's workers (run-context.ts).
  const refusal =
    keyEnvRefusal(run.keyEnv, rules) ??
    keyEnvRefusal(keyEnv, rules) ??
    recordedBaseUrlRefusal(run.baseUrl, rules) ??
    insecureRunRefusal(run.baseUrl, { allowInsecure, command: 'approve' });
  if (refusal) throw new UsageError(`run ${run.id} cannot be approved here: ${refusal}`);
  const key = readCheckedKey(io.env, keyEnv, rules);
  if (!key) throw new UsageError(runKeyMissingLine(keyEnv, run, io.keysFile));
  if ((await runtime.registry.resolveRef(sellerRef(run.baseUrl, key))) !== run.sellerRef) {
    const file = runKeysFileHelp(run, io.keysFile, 'give the --keys-file that holds its key');
    throw new UsageError(
      `${keyEnv} holds another seller's key: run ${run.id} is seller ${sellerLabel(run.sellerRef, run.sellerName)}'s; ` +
        `${file}, or name the variable that holds its key with --key-env`,
    );
  }
  await refuseRejectedKey(runtime, run, key, keyEnv, { allowedHosts: rules.hosts });
}

/**
 * The key variable unset here: with a `--keys-file` given, what that file holds instead
 * (missingKeyLine); else, as `revert` says it, where the key may come from, naming the keys file
 * the run read it from when it had one.
 */
function runKeyMissingLine(keyEnv: string, run: RunRecord, given: KeysFileNames | undefined): string {
  if (given) return `run ${run.id}'s key: ${missingKeyLine(keyEnv, given)}`;
  const what =
    keyEnv === run.keyEnv ? `run ${run.id} was made with the key in it` : `it must hold run ${run.id}'s key`;
  const where = runKeysFileHelp(run, given, 'set it, give it in --keys-file');
  return `${keyEnv} is not set: ${what} (${where}, or name another variable with --key-env)`;
}

/** Run ids and refs come back from Redis: shown escaped. */
function say(io: CliIo, text: string): void {
  io.stderr.write(terminalSafe(text));
}
