import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_BEAT_MS, APPROVAL_STOPPED_AFTER_MS } from '../../../src/defaults.js';
import { type ApprovalDeps, queueApproval } from '../../../src/queue/approval.js';
import type { Repeat } from '../../../src/redis/renew-while.js';
import { approvalPhase, unqueuedApprovalText } from '../../../src/runs/approval-phase.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { pricesDoubledHeld } from '../support/held-run.js';
import { usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { RedisStall } from '../support/redis-stall.js';
import { until } from '../support/until.js';

/** The approve's clock and its renewals, moved by the test: no wall-clock wait. */
function testTime(start: number): { clock: () => number; repeat: Repeat; beat: (ms: number) => void } {
  let now = start;
  const ticks = new Set<() => void>();
  return {
    clock: () => now,
    repeat: (tick) => {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    beat: (ms) => {
      now += ms;
      for (const tick of ticks) tick();
    },
  };
}

/**
 * An approve whose queueing takes long (a huge held run, a slow Redis): its first chunk job is held
 * back by a relay on BullMQ's connection, while its heartbeat goes on the tool's own connection.
 * Time is the test's: minutes pass in a few calls.
 */
describe('an approve still queueing its writes', () => {
  const pipeline = usePipeline();
  const clients: Redis[] = [];
  let stall: RedisStall | null = null;
  afterEach(async () => {
    // Released first: a client whose commands the relay still holds would never quit.
    stall?.release();
    await Promise.all(clients.splice(0).map((client) => client.quit()));
    await stall?.close();
    stall = null;
  });

  function client(url = TEST_REDIS_URL): Redis {
    const redis = new Redis(url, { maxRetriesPerRequest: null });
    clients.push(redis);
    return redis;
  }

  function depsOn(queueing: Redis, commands: Redis, time?: ReturnType<typeof testTime>): ApprovalDeps {
    const keys = new RedisKeys(pipeline.prefix);
    return {
      redis: queueing,
      commands,
      keys,
      runs: new RunStore(commands, keys),
      prefix: pipeline.prefix,
      ...(time ? { approvalBeat: { clock: time.clock, repeat: time.repeat } } : {}),
    };
  }

  it('is not taken for stopped while it renews its heartbeat, long past the start; once it stops renewing, it is', {
    timeout: 30_000,
  }, async () => {
    const runId = await pricesDoubledHeld(pipeline);
    stall = await RedisStall.start('"phase":"approve"');
    const time = testTime(Date.now());
    const first = depsOn(client(stall.url), client(), time);
    const held = await first.runs.get(runId);
    if (!held) throw new Error(`no run ${runId}`);
    const queueing = queueApproval(first, held, null, time.clock());
    // Awaited at the end; a test that fails before then closes its connections under it.
    queueing.catch(() => undefined);
    await stall.stalled;

    // Two minutes of queueing, twice the old bound, the heartbeat renewed every beat.
    const second = depsOn(client(), client());
    const record = async () => {
      const run = await second.runs.get(runId);
      if (!run) throw new Error(`no run ${runId}`);
      return run;
    };
    const readAtStart = await record();
    for (let elapsed = 0; elapsed < 2 * 60_000; elapsed += APPROVAL_BEAT_MS) {
      time.beat(APPROVAL_BEAT_MS);
      await until('the heartbeat', async () => (await record()).approvalAliveAt === time.clock());
    }
    const alive = await record();
    expect(approvalPhase(alive, time.clock())).toBe('queueing');
    expect(unqueuedApprovalText(alive, time.clock())).toMatch(/^an approve is queueing its writes \(since /);
    // A second approve meanwhile is refused, as two at once are; also one that read the run before
    // the latest renewals (its record says silent): the takeover checks the heartbeat as it is.
    await expect(queueApproval(second, alive, null, time.clock())).rejects.toThrow(
      `run ${runId} is being approved by another approve (since `,
    );
    expect(approvalPhase(readAtStart, time.clock())).toBe('stopped');
    await expect(queueApproval(second, readAtStart, null, time.clock())).rejects.toThrow(
      `run ${runId} is being approved by another approve (since `,
    );

    // Its renewals stop (the process frozen, or killed): once its heartbeat is older than the bound,
    // it is taken for stopped, and the next approve finishes its round.
    const lastHeard = time.clock();
    expect(approvalPhase(await record(), lastHeard + APPROVAL_STOPPED_AFTER_MS - 1)).toBe('queueing');
    const late = lastHeard + APPROVAL_STOPPED_AFTER_MS;
    const silent = await record();
    expect(approvalPhase(silent, late)).toBe('stopped');
    const finished = await queueApproval(second, silent, null, late);
    expect(finished).toMatchObject({ resumed: true, rows: 20 });

    stall.release();
    await queueing;
    expect(approvalPhase(await record(), late)).toBe('queued');
  });
});
