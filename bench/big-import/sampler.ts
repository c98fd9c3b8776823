import type { Redis } from 'ioredis';
import type { RedisKeys } from '../../src/runs/keys.js';
import { processMemory } from './processes.js';
import { type PrefixMemory, prefixMemory, usedMemory } from './redis-memory.js';

/**
 * - `filling`: `import` reads the source, no worker runs;
 * - `blocked`: the producer waits at the high-water mark (held a few seconds to show the plateau);
 * - `syncing`: a worker takes the jobs until the run is done;
 * - `after`: the run is done, its data kept.
 */
export type Phase = 'filling' | 'blocked' | 'syncing' | 'after';

export interface Sample {
  at: number;
  phase: Phase;
  importerRss: number;
  workerRss: number | null;
  sandboxRss: number | null;
  redisUsed: number;
  prefix: PrefixMemory;
  /** The run's `total` so far: rows the producer has read and queued or settled. */
  rowsRead: number;
  waitingJobs: number;
}

/** Samples every process's RSS and the Redis memory every `everyMs`, tagged with the current phase. */
export class Sampler {
  readonly samples: Sample[] = [];
  phase: Phase = 'filling';
  workerPid: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly waitingList: string,
    private readonly sandboxPid: number,
    private readonly everyMs = 200,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      // A slow sample (Redis busy) is skipped rather than piled up.
      if (this.busy) return;
      this.busy = true;
      this.sample()
        .then((sample) => this.samples.push(sample))
        .catch((error: unknown) => console.error(`sample failed: ${String(error)}`))
        .finally(() => {
          this.busy = false;
        });
    }, this.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  latest(): Sample | undefined {
    return this.samples.at(-1);
  }

  /** The largest value of `pick` over the samples of `phases` (0 when none). */
  peak(phases: Phase[], pick: (sample: Sample) => number | null): number {
    let peak = 0;
    for (const sample of this.samples) {
      if (phases.includes(sample.phase)) peak = Math.max(peak, pick(sample) ?? 0);
    }
    return peak;
  }

  of(phase: Phase): Sample[] {
    return this.samples.filter((sample) => sample.phase === phase);
  }

  private async sample(): Promise<Sample> {
    const phase = this.phase;
    const [runId] = await this.redis.zrevrange(this.keys.runs, 0, 0);
    const [worker, sandbox, redisUsed, prefix, total, waitingJobs] = await Promise.all([
      this.workerPid === null ? null : processMemory(this.workerPid),
      processMemory(this.sandboxPid),
      usedMemory(this.redis),
      prefixMemory(this.redis, this.keys.prefix),
      runId ? this.redis.hget(this.keys.run(runId), 'total') : null,
      this.redis.llen(this.waitingList),
    ]);
    return {
      at: Date.now(),
      phase,
      importerRss: process.memoryUsage().rss,
      workerRss: worker?.rss ?? null,
      sandboxRss: sandbox?.rss ?? null,
      redisUsed,
      prefix,
      rowsRead: Number(total ?? 0),
      waitingJobs,
    };
  }
}
