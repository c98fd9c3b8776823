import type { ChainableCommander } from 'ioredis';
import {
  discardedByMigration,
  type MigrationReply,
  migrationReplyOf,
  tryAgainDelayMs,
} from './migration-replies.js';

/** ioredis's Command as a pipeline keeps it (internal fields this module relies on). */
interface QueuedCommand {
  name: string;
  /** An ASKING ioredis added itself: its answer is not among the pipeline's. */
  ignore?: boolean;
  initPromise(): void;
}

/** ioredis's Pipeline, with the fields a re-send needs. */
interface QueuedPipeline extends ChainableCommander {
  _queue: QueuedCommand[];
  sendCommand(command: QueuedCommand): unknown;
}

type Answers = [Error | null, unknown][] | null;

/**
 * Why a pipeline's command is sent again: a migration reply, or NOSCRIPT. ioredis sends a script as
 * EVAL on a connection's first use of it, then by its SHA1; one answered TRYAGAIN or ASK never ran,
 * so the node never learned it, and its next send by SHA1 is answered NOSCRIPT (then the connection
 * forgets it, and a send again is an EVAL). ioredis sends again after a NOSCRIPT itself, but not a
 * command re-sent here (its promise is a new one).
 */
type Resend = MigrationReply | 'NOSCRIPT';

function resendOf(error: unknown): Resend | null {
  if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return 'NOSCRIPT';
  return migrationReplyOf(error);
}

/** What a pipeline's rider needs of its cluster. */
export interface MigrationRiding {
  /** ioredis's own pipeline and MULTI of the cluster (not ridden). */
  rawPipeline(): ChainableCommander;
  rawMulti(): ChainableCommander;
  refreshSlotsCache(): void;
  /** How many redirections (MOVED, ASK) in a row before ioredis gives up; a TRYAGAIN starts it over. */
  readonly maxRedirections: number;
  /** How long a CLUSTERDOWN is tried again (a failover), as a command's is (WatchedCluster.rideOutMs). */
  readonly rideOutMs: number;
  /** A reply given up on: reported as a command's error is (the health watch). */
  gaveUp(error: Error): void;
}

/** Counts the rounds of one pipeline's re-sends and says how long to wait before the next, or to stop. */
class Rounds {
  private tryAgains = 0;
  private redirections = 0;
  private readonly since = Date.now();
  constructor(private readonly riding: MigrationRiding) {}

  /** The wait before sending again after `replies`; null: give up (a loop of redirections, a cluster down too long). */
  next(replies: Resend[]): number | null {
    if (replies.includes('TRYAGAIN')) {
      this.redirections = 0;
      return tryAgainDelayMs(++this.tryAgains);
    }
    if (replies.includes('CLUSTERDOWN')) {
      return Date.now() - this.since < this.riding.rideOutMs ? tryAgainDelayMs(++this.tryAgains) : null;
    }
    if (++this.redirections > this.riding.maxRedirections) return null;
    if (replies.includes('MOVED')) this.riding.refreshSlotsCache();
    return 0;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The commands whose answers the pipeline gives, in their order (ioredis's own ASKINGs left out). */
function answered(pipeline: ChainableCommander): QueuedCommand[] {
  return (pipeline as QueuedPipeline)._queue.filter((command) => !command.ignore);
}

/** `commands` sent again in `into` (a fresh pipeline or MULTI), then run. */
function resend(into: ChainableCommander, commands: QueuedCommand[]): Promise<Answers> {
  for (const command of commands) {
    command.initPromise();
    (into as QueuedPipeline).sendCommand(command);
  }
  return into.exec() as Promise<Answers>;
}

/**
 * A pipeline (no MULTI) whose commands met a slot's move: ioredis follows ASK, MOVED and TRYAGAIN
 * only when every command of it was answered so, and none wrote. One that wrote some keys (still on
 * the slot's old master) and was sent elsewhere for others came back with those replies as answers:
 * a settle that had recorded a row's write half way failed, and the chunk was tried again from its
 * start, its rows' PUTs sent again. Here the commands answered with a migration reply (never run)
 * are sent again, in their order, until answered (TRYAGAIN: with a bounded backoff, as long as the
 * move lasts); the others are not sent twice.
 */
async function ridePipeline(first: Promise<Answers>, pipeline: ChainableCommander, riding: MigrationRiding) {
  const answers = await first;
  if (!answers) return answers;
  const commands = answered(pipeline);
  const rounds = new Rounds(riding);
  for (;;) {
    const pending = answers.flatMap(([error], index) => (resendOf(error) ? [index] : []));
    if (pending.length === 0) return answers;
    const wait = rounds.next(pending.map((index) => resendOf(answers[index]?.[0]) as Resend));
    if (wait === null) {
      for (const index of pending) riding.gaveUp(answers[index]?.[0] as Error);
      return answers;
    }
    if (wait > 0) await sleep(wait);
    const again = await resend(
      riding.rawPipeline(),
      pending.map((index) => commands[index] as QueuedCommand),
    );
    pending.forEach((index, k) => {
      answers[index] = again?.[k] ?? [new Error('Redis gave no answer to a command sent again'), null];
    });
  }
}

/**
 * A MULTI a slot's move discarded (EXEC answered TRYAGAIN, or EXECABORT for a command queued with a
 * migration reply): nothing of it ran, so it is sent again whole, until it runs (TRYAGAIN: with a
 * bounded backoff, as long as the move lasts).
 */
async function rideTransaction(first: Promise<unknown>, multi: ChainableCommander, riding: MigrationRiding) {
  const rounds = new Rounds(riding);
  let attempt = first;
  let current = multi;
  for (;;) {
    try {
      return await attempt;
    } catch (error) {
      const reply = discardedByMigration(error);
      const wait = reply === null ? null : rounds.next([reply]);
      if (wait === null) {
        if (reply !== null) riding.gaveUp(error as Error);
        throw error;
      }
      if (wait > 0) await sleep(wait);
      const inner = answered(current).filter(
        (command) => command.name !== 'multi' && command.name !== 'exec',
      );
      current = riding.rawMulti();
      attempt = resend(current, inner);
    }
  }
}

/**
 * Makes `pipeline.exec()` ride out a slot's move (see ridePipeline, rideTransaction). Only the
 * caller's exec is ridden: ioredis's own retries call exec again, and go through as they did.
 */
export function rideMigrations(
  pipeline: ChainableCommander,
  riding: MigrationRiding,
  transaction: boolean,
): void {
  const exec = pipeline.exec;
  let called = false;
  pipeline.exec = function (
    this: ChainableCommander,
    callback?: (error: Error | null, answers?: Answers) => void,
  ) {
    if (called) return exec.call(this);
    called = true;
    const first = exec.call(this);
    const ridden = (
      transaction ? rideTransaction(first, this, riding) : ridePipeline(first, this, riding)
    ) as Promise<Answers>;
    if (callback) ridden.then((answers) => callback(null, answers), callback);
    return ridden;
  } as typeof pipeline.exec;
}
