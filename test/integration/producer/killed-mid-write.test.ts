import { Queue } from 'bullmq';
import { type Command, Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { MappedRow, RowOutcome } from '../../../src/interfaces.js';
import { cancelRun } from '../../../src/queue/cancel-run.js';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import type { RunRecord } from '../../../src/runs/run-store.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { countingSource, enqueueDeps, invalid, RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

/**
 * A chaos prober's finding: a `run` killed (kill -9) while it read its source left a run whose counts
 * did not add up (`rows 1400 settled of 1300 read so far`), and whose report left out the rows of
 * the chunk it queued last: one 100-row chunk queued (and sent by a worker) while the run's rows
 * read were not yet counted. Here the producer's process dies at a state waited for, not at a
 * guessed time: its connection sends nothing more from the moment Redis answered a given write (what
 * Redis had, it keeps; nothing after reaches it). Another process then writes what was queued, and
 * the run is ended as a user would end it. Its counts add up, and its report has one line per row.
 */
describe('a run whose reader is killed between two of its writes', () => {
  const rig = useProducerRig();
  const SOURCED = { ...RUN_SPEC, sourceId: 'feed-1' };
  const ROWS = 2000;
  /** The chunk whose job is the last write Redis had (rows 1301–1400), as in the prober's run. */
  const LAST_CHUNK = 13;
  /** An invalid row in the chunk after it: the producer settles it itself. */
  const INVALID_ROW = 1350;
  const deps = (redis: Redis) =>
    enqueueDeps(
      { ...rig, redis, runs: new RunStore(redis, rig.keys) },
      {
        producingBeatMs: 50,
      },
    );

  /** A connection of the reader's process: it dies once `dies` holds of a command Redis answered. */
  function doomedConnection(dies: (command: Command) => boolean) {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    let dead = false;
    let gone = false;
    const unsent: Command[] = [];
    let died: () => void = () => undefined;
    const death = new Promise<void>((resolve) => {
      died = resolve;
    });
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: Command, stream?: unknown) => {
      if (gone) {
        command.reject(new Error('the process was killed'));
        return command.promise;
      }
      if (dead) {
        unsent.push(command);
        return command.promise;
      }
      const answered = send(command, stream as never) as Promise<unknown>;
      if (dies(command)) {
        // Before anything of the process goes on from the answer: nothing after it is sent.
        answered.then(
          () => {
            dead = true;
            died();
          },
          () => undefined,
        );
      }
      return answered;
    }) as typeof redis.sendCommand;
    return {
      redis,
      death,
      /** After the test: what the dead process waits on fails, so that nothing of it lingers. */
      async bury() {
        gone = true;
        for (const command of unsent.splice(0)) command.reject(new Error('the process was killed'));
        redis.disconnect();
      },
    };
  }

  const buried: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const bury of buried.splice(0)) await bury();
  });

  const argsHold = (command: Command, text: string) =>
    command.args.some((arg) => (Buffer.isBuffer(arg) ? arg.includes(text) : String(arg) === text));

  /** The rows of the source: every one a product, but INVALID_ROW. */
  const source = () =>
    countingSource(ROWS, (row): MappedRow => (row === INVALID_ROW ? invalid(row) : upsert(row)));

  /** Starts the run on a connection that dies as `dies` says; resolves once it died, with the run's id. */
  async function killedRun(dies: (runId: string) => (command: Command) => boolean): Promise<string> {
    let runId = '';
    let test: (command: Command) => boolean = () => false;
    const doomed = doomedConnection((command) => test(command));
    buried.push(doomed.bury);
    const reading = enqueueRun(deps(doomed.redis), SOURCED, source().rows(), {
      onRunCreated: (run) => {
        runId = run.id;
        test = dies(run.id);
      },
    });
    reading.catch(() => undefined);
    await doomed.death;
    return runId;
  }

  /** Another process's worker writes every chunk still queued: each row created. */
  async function writeQueuedChunks(runId: string): Promise<void> {
    const queue = new Queue<ChunkJobData>(
      rig.keys.sellerQueue(SOURCED.sellerRef),
      queueOptions(rig.redis, rig.prefix),
    );
    try {
      for (const job of await queue.getJobs(['wait', 'prioritized', 'delayed'])) {
        if (job.data.runId !== runId || (await queue.remove(job.id as string)) !== 1) continue;
        const created = job.data.rows.map(
          (row): RowOutcome => ({
            row: row.row,
            key: row.key,
            action: 'create',
            productId: `p-${row.row}`,
            status: 'ok',
            error: '',
          }),
        );
        await rig.runs.settle(runId, created);
      }
    } finally {
      await queue.close();
    }
  }

  /** The run's counts add up, and its report has one line per row read, in order. */
  async function expectWhole(run: RunRecord | null): Promise<void> {
    expect(run?.settled, 'rows settled').toBe(run?.total);
    const actions = Object.entries(run?.counts ?? {})
      .filter(([field]) => field.startsWith('action:'))
      .reduce((sum, [, count]) => sum + count, 0);
    expect(actions, 'rows counted by action').toBe(run?.total);
    const rows: number[] = [];
    for await (const line of rig.runs.outcomes(run?.id ?? '')) if (line.row !== null) rows.push(line.row);
    expect(rows).toEqual(Array.from({ length: run?.total ?? 0 }, (_, i) => i + 1));
  }

  const killPoints = {
    'the job of a chunk was added': (runId: string) => (command: Command) =>
      argsHold(command, `${runId}-${LAST_CHUNK}`),
    // The settle script: the one script that writes the run's outcomes.
    'the rows it settles itself were settled': (runId: string) => (command: Command) =>
      /^eval/i.test(command.name) && argsHold(command, rig.keys.outcomes(runId)),
  };

  for (const [point, dies] of Object.entries(killPoints)) {
    describe(`killed once ${point}`, () => {
      it('counts no row settled that it did not count read; cancelled, its report lists every row once', {
        timeout: 30_000,
      }, async () => {
        const runId = await killedRun(dies);

        await writeQueuedChunks(runId);
        const written = await rig.runs.get(runId);
        expect(
          written?.settled ?? 0,
          `${written?.settled} settled of ${written?.total} read`,
        ).toBeLessThanOrEqual(written?.total ?? 0);

        expect((await cancelRun(deps(rig.redis), runId)).kind).toBe('cancelled');
        await expectWhole(await rig.runs.get(runId));
      });

      it('ended by a re-run of its source, its report lists every row once', {
        timeout: 30_000,
      }, async () => {
        const runId = await killedRun(dies);
        await writeQueuedChunks(runId);

        const rerun = await enqueueRun(deps(rig.redis), SOURCED, source().rows());

        expect(rerun.kind).toBe('queued');
        const ended = await rig.runs.get(runId);
        expect(ended).toMatchObject({ state: 'done', aborted: true });
        await expectWhole(ended);
      });
    });
  }
});
