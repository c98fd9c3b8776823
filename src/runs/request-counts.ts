import type { ChainableCommander, Redis } from 'ioredis';

/** Counts queued on a pipeline: its first `commands` commands, and how to keep them if those fail. */
export interface QueuedCounts {
  commands: number;
  putBack: () => void;
}

interface Counts {
  requests: number;
  writes: number;
}

/**
 * A request the run counts as a write: a POST or PUT the API answered 2xx, so applied for sure. A
 * write answered 429 or another 4xx was refused; one answered 5xx, or whose answer was lost (a
 * timeout, a reset), may have been applied or not (its outcome is unknown, as the client treats it):
 * each is a request only, and its row's outcome says what became of the product (docs/report.md).
 */
export function isAnsweredWrite(method: string, status: number | null): boolean {
  return method !== 'GET' && status !== null && status >= 200 && status < 300;
}

/**
 * A run's requests and writes sent by this process and not yet added to its record (issue 12):
 * counted in memory, then added in the round trip that settles the run's next rows (run-store.ts),
 * at the end of each chunk and when the process closes. A row settles only after the requests that
 * decided it are counted, so once every row is settled the run's `requests` equals the requests
 * sent (a process killed in between loses the counts it had not added: REQUESTS_AT_LEAST).
 */
export class RequestCounts {
  private readonly pending = new Map<string, Counts>();

  /** `isWrite`: the request is a write the API applied (`isAnsweredWrite`). */
  add(runId: string, isWrite: boolean): void {
    const counts = this.pending.get(runId) ?? { requests: 0, writes: 0 };
    counts.requests++;
    if (isWrite) counts.writes++;
    this.pending.set(runId, counts);
  }

  /** Queues the run's pending counts first on `multi`; `execWithCounts` runs it. */
  queue(multi: ChainableCommander, runKey: string, runId: string): QueuedCounts {
    const counts = this.pending.get(runId);
    if (!counts) return { commands: 0, putBack: () => undefined };
    this.pending.delete(runId);
    multi.hincrby(runKey, 'requests', counts.requests);
    if (counts.writes > 0) multi.hincrby(runKey, 'writes', counts.writes);
    return {
      commands: counts.writes > 0 ? 2 : 1,
      putBack: () => this.putBack(runId, counts),
    };
  }

  /**
   * Takes the run's pending counts, for a script that adds them itself (the settle's); `putBack`
   * keeps them for later when the script did not run.
   */
  take(runId: string): Counts & { putBack: () => void } {
    const counts = this.pending.get(runId) ?? { requests: 0, writes: 0 };
    this.pending.delete(runId);
    return { ...counts, putBack: () => this.putBack(runId, counts) };
  }

  private putBack(runId: string, counts: Counts): void {
    const now = this.pending.get(runId) ?? { requests: 0, writes: 0 };
    this.pending.set(runId, { requests: now.requests + counts.requests, writes: now.writes + counts.writes });
  }

  /** The runs with counts not yet added. */
  runs(): string[] {
    return [...this.pending.keys()];
  }
}

/**
 * The run record's fields that say its `requests` and `writes` are at least what they say: a chunk
 * of the run was taken back after its process stopped holding it (killed, stopped, or out of touch
 * with Redis past its job lock), and that process's counts not yet added may be lost with it. How
 * many: the requests it had in flight and those answered since its last settle (each settle adds
 * what the process counted, and a row settles within 10 ms), about twice `--concurrency`; killed
 * during the run's list read, the pages read so far too (added once the read is whole). No cheaper
 * record is exact: a request in flight at a kill is counted by nobody but the API, unless a Redis
 * write went before every request. The seller's quota numbers (request-quota.ts) are reserved before
 * their requests, but in blocks and per seller: they bound the seller's day from above, not a run's.
 *
 * One field per attempt taken over (`requestsAtLeast:<chunk job>:<attempt>`), `1` while its counts
 * may be lost: a process that was only stopped, once it found its lock lost and added its counts,
 * sets its own field to `0`, before or after the taker marks it (which leaves a `0` as it is), and
 * the counts are exact again once no field says `1`. `requestsAtLeast` alone: an earlier version's.
 */
export const REQUESTS_AT_LEAST = 'requestsAtLeast';

const attemptField = (jobId: string, attempt: number) => `${REQUESTS_AT_LEAST}:${jobId}:${attempt}`;

/**
 * Marks the run's counts as lower bounds (REQUESTS_AT_LEAST): only on the path of a chunk taken back,
 * for the attempt it was taken from (`attempt`, BullMQ's attemptsStarted then).
 */
export async function markRequestsAtLeast(
  redis: Redis,
  runKey: string,
  jobId: string,
  attempt: number,
): Promise<void> {
  // Not over the attempt's own word that its counts are added (it may have ended first).
  await redis.hsetnx(runKey, attemptField(jobId, attempt), 1);
}

/**
 * The attempt (`attempt`, its attemptsStarted) lost its lock and ended, and this process added its
 * counts: what the attempt that takes the chunk marks for it, or marked, is not true.
 */
export async function markRequestsCounted(
  redis: Redis,
  runKey: string,
  jobId: string,
  attempt: number,
): Promise<void> {
  await redis.hset(runKey, attemptField(jobId, attempt), 0);
}

/** Whether a run's hash says its counts are lower bounds (a mark of either form left). */
export function requestsAtLeastIn(hash: Record<string, string>): boolean {
  if (hash[REQUESTS_AT_LEAST] === '1') return true;
  return Object.entries(hash).some(
    ([field, value]) => value === '1' && field.startsWith(`${REQUESTS_AT_LEAST}:`),
  );
}

/**
 * Runs a pipeline that starts with queued counts; rejects with the first command's error, and keeps
 * the counts for later when they were not added. Resolves to the last command's result.
 */
export async function execWithCounts(multi: ChainableCommander, counts: QueuedCounts): Promise<unknown> {
  let results: [Error | null, unknown][];
  try {
    results = (await multi.exec()) ?? [];
  } catch (error) {
    counts.putBack();
    throw error;
  }
  if (results.slice(0, counts.commands).some(([error]) => error)) counts.putBack();
  for (const [error] of results) if (error) throw error;
  return results.at(-1)?.[1];
}
