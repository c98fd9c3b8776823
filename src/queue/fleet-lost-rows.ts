import type { Redis } from 'ioredis';
import { QUEUE_READS_PER_SECOND } from '../defaults.js';
import type { Logger } from '../logger.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { SellerState } from '../sellers/seller-state.js';
import { type LostChunkDeps, settleLostRows } from './lost-chunks.js';
import { type IdleRun, LostRowsWatch } from './lost-rows-watch.js';

// A run whose queued chunk Redis lost (lost-chunks.ts) is ended by the `run` waiting on it. In a
// fleet (`import` from cron, long-running `worker`s: docs/many-sellers.md) nobody waits on a run:
// it would stay `running` for good, the seller's later runs waiting behind it (run order) and its
// `--notify` never told `ended`. So each worker watches the open runs of the sellers it serves, as
// the wait does: a run idle for a lock and a stall check is looked at, then twice as late each time
// up to a minute, and not while its seller is paused. The runs are read from the seller's own index
// from its oldest run not ended on, three fields each: no command per row, and no look at a run that
// moves. Several workers serving one seller take turns through a short mark per run (CLAIM_LOOK):
// one look per idle run per interval across the fleet; two at once would be harmless (a row settles
// once), only wasted reads.

/**
 * Takes the look at the run at this progress (`settled/total`), unless another worker took it: the
 * mark holds the progress looked at for the time to that worker's next look. A run that moved since
 * is a new idle state, looked at by whichever worker comes first.
 */
const CLAIM_LOOK = luaScript(
  'claimLostRowsLook',
  1,
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`,
);

export interface FleetLostRowsDeps extends LostChunkDeps {
  /** The tool's own connection: the runs' index, their records and the marks are read on it. */
  commands: Redis;
  sellers: Pick<SellerState, 'status'>;
  logger: Logger;
  now: () => number;
  /** A Redis that refuses writes (full, read-only) could not take a settle: no look meanwhile. */
  health?: { fault: unknown };
}

/** What a worker knows of one served seller's runs. */
interface SellerRuns {
  /** The creation time from which its runs are read: every earlier one has ended. */
  from: number;
  /** Its runs read from `from` on that ended for good (done, cancelled, gone): not read again. */
  ended: Set<string>;
  /** A watch per open run (queued or running). */
  watches: Map<string, LostRowsWatch>;
}

/** States a run never leaves: a held run is not among them (`approve` makes it running again). */
const ENDED = new Set(['done', 'cancelled']);

export class FleetLostRows {
  private readonly bySeller = new Map<string, SellerRuns>();
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly deps: FleetLostRowsDeps,
    /** The refs of the sellers this worker serves (holds a key for). */
    private readonly served: () => readonly string[],
    /** How long a run stays idle before its first look: a job's lock and a stall check. */
    private readonly idleMs: number,
    /** The look (tests: one that counts). */
    private readonly settle: (deps: LostChunkDeps, runId: string) => Promise<number> = settleLostRows,
  ) {}

  /** Reads every `intervalMs` (longer with many sellers, as the queues' reads) until `close`. */
  start(intervalMs: number): void {
    const next = () => {
      const wait = Math.max(intervalMs, (this.served().length / QUEUE_READS_PER_SECOND) * 1000);
      this.timer = setTimeout(() => {
        this.looking = this.look()
          .catch((error: unknown) =>
            this.deps.logger.warn({ err: String(error) }, 'could not look for runs no chunk holds'),
          )
          .finally(() => {
            this.looking = null;
            if (this.timer) next();
          });
      }, wait);
    };
    next();
  }

  /** Stops reading; a read under way ends after the seller it is at (a stopping worker waits for it). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
  }

  /** One read of the served sellers' open runs; a run idle long enough is looked at. */
  async look(): Promise<void> {
    if (this.deps.health?.fault) return;
    const refs = new Set(this.served());
    for (const ref of this.bySeller.keys()) if (!refs.has(ref)) this.bySeller.delete(ref);
    for (const ref of refs) {
      if (this.closed) return;
      let runs = this.bySeller.get(ref);
      if (!runs) {
        runs = { from: 0, ended: new Set(), watches: new Map() };
        this.bySeller.set(ref, runs);
      }
      await this.lookAtSeller(ref, runs);
    }
  }

  private async lookAtSeller(ref: string, runs: SellerRuns): Promise<void> {
    const open = await this.openRuns(ref, runs);
    for (const id of runs.watches.keys()) if (!open.has(id)) runs.watches.delete(id);
    let paused: boolean | null = null;
    for (const [id, run] of open) {
      let watch = runs.watches.get(id);
      if (!watch) {
        watch = new LostRowsWatch(
          this.idleMs,
          (seen, nextMs) => this.lookAt(id, seen, nextMs),
          this.deps.now,
        );
        runs.watches.set(id, watch);
      }
      // Not while the seller is paused (a daily limit: hours), its key rejected or its API out of
      // reach: its runs are idle for that with their rows held, and a look reads every job and
      // outcome. The seller's state is read only when a look is due; once it lifts, the next read looks.
      if (watch.due(run)) {
        paused ??= await this.sellerHeld(ref);
        if (paused) continue;
      }
      await watch.observe(run);
    }
  }

  /**
   * The seller's open runs (queued or running) with their progress, from its index (creation time),
   * from the oldest run not known to have ended on. A held run is not open, but is read again.
   */
  private async openRuns(ref: string, runs: SellerRuns): Promise<Map<string, IdleRun>> {
    const { commands, keys } = this.deps;
    const scored = await commands.zrangebyscore(keys.sellerRuns(ref), runs.from, '+inf', 'WITHSCORES');
    const listed: Array<{ id: string; at: number }> = [];
    for (let i = 0; i + 1 < scored.length; i += 2)
      listed.push({ id: scored[i] as string, at: Number(scored[i + 1]) });
    const unread = listed.filter(({ id }) => !runs.ended.has(id));
    const records = await Promise.all(
      unread.map(({ id }) => commands.hmget(keys.run(id), 'state', 'settled', 'total')),
    );
    const fields = new Map(unread.map(({ id }, i) => [id, records[i] ?? []]));
    const open = new Map<string, IdleRun>();
    const ended: typeof listed = [];
    let from: number | null = null;
    for (const { id, at } of listed) {
      const [state, settled, total] = fields.get(id) ?? [];
      // A record gone (expired) or never written (a create stopped half way) is over too.
      if (runs.ended.has(id) || !state || ENDED.has(state)) {
        ended.push({ id, at });
        continue;
      }
      from ??= at;
      if (state === 'queued' || state === 'running')
        open.set(id, { settled: Number(settled ?? 0), total: Number(total ?? 0) });
    }
    // All of them ended: the next read starts at the newest (another run may be created in its ms).
    runs.from = from ?? listed.at(-1)?.at ?? runs.from;
    runs.ended = new Set(ended.filter(({ at }) => at >= runs.from).map(({ id }) => id));
    return open;
  }

  private async sellerHeld(ref: string): Promise<boolean> {
    // The pause, the 401 and the unreachable mark do not depend on the seller's daily reset.
    const status = await this.deps.sellers.status(ref, '00:00');
    return status.pausedUntil !== null || status.authRejected || Boolean(status.unreachable);
  }

  /** Looks at the run, unless another worker just looked at it as it is (CLAIM_LOOK). */
  private async lookAt(id: string, run: IdleRun, nextMs: number): Promise<void> {
    const { commands, keys, logger } = this.deps;
    try {
      const progress = `${run.settled}/${run.total}`;
      const mine = await runScript(commands, CLAIM_LOOK, keys.lostRowsLook(id), progress, nextMs);
      if (mine !== 1) return;
      await this.settle(this.deps, id);
    } catch (error) {
      logger.warn({ run: id, err: String(error) }, 'could not look for rows no chunk holds');
    }
  }
}
