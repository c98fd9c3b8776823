import type { ChainableCommander } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MigrationRiding, rideMigrations } from '../../../src/redis/migration-pipeline.js';
import {
  discardedByMigration,
  migrationReplyOf,
  tryAgainDelayMs,
} from '../../../src/redis/migration-replies.js';

type Answer = [Error | null, unknown];

/** A command as ioredis's pipeline queues it: its name, and how often it was put in a pipeline. */
interface FakeCommand {
  name: string;
  ignore?: boolean;
  initPromise(): void;
}

/**
 * A stand-in for ioredis's Pipeline: `answer` decides each command's answer per send (the node's),
 * and every command sent is counted in `sent` (what Redis was asked).
 */
function fakeRedis(answer: (command: FakeCommand, round: number) => Answer) {
  const sent: string[] = [];
  let round = 0;
  const command = (name: string): FakeCommand => ({ name, initPromise: () => {} });
  const pipelineOf = (commands: FakeCommand[], transaction: boolean) => {
    const pipeline = {
      _queue: [...commands],
      sendCommand(command: FakeCommand) {
        pipeline._queue.push(command);
      },
      exec: async () => {
        // ioredis's MULTI queues its EXEC as it is run.
        if (transaction && pipeline._queue.at(-1)?.name !== 'exec') pipeline._queue.push(command('exec'));
        round++;
        for (const command of pipeline._queue) sent.push(command.name);
        const answers = pipeline._queue.map((command) => answer(command, round));
        if (!transaction) return answers;
        // A MULTI: discarded whole when a queued command was refused (EXECABORT, previousErrors).
        const inner = answers.filter((_, i) => !['multi', 'exec'].includes(pipeline._queue[i]?.name ?? ''));
        const refused = inner.flatMap(([error]) => (error ? [error] : []));
        if (refused.length > 0)
          throw Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), {
            previousErrors: refused,
          });
        return inner;
      },
    };
    return pipeline;
  };
  const gaveUp: Error[] = [];
  const riding: MigrationRiding = {
    rawPipeline: () => pipelineOf([], false) as unknown as ChainableCommander,
    rawMulti: () => pipelineOf([command('multi')], true) as unknown as ChainableCommander,
    refreshSlotsCache: () => {},
    maxRedirections: 16,
    rideOutMs: 20_000,
    gaveUp: (error) => gaveUp.push(error),
  };
  const ridden = (names: string[], transaction = false) => {
    const commands = names.map(command);
    const pipeline = pipelineOf(
      transaction ? [command('multi'), ...commands] : commands,
      transaction,
    ) as unknown as ChainableCommander;
    rideMigrations(pipeline, riding, transaction);
    return pipeline;
  };
  return { sent, gaveUp, ridden };
}

const reply = (message: string): Answer => [new Error(message), null];

describe('a pipeline met by a slot on the move', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends again only the commands answered ASK: the settle script, not the writes that were done', async () => {
    // HSETNX of a key still on the old master is done; the script's keys moved: ASK.
    const redis = fakeRedis((command, round) =>
      command.name === 'evalsha' && round === 1 ? reply('ASK 7905 127.0.0.1:7002') : [null, command.name],
    );
    const answers = await redis.ridden(['hsetnx', 'sadd', 'evalsha']).exec();

    expect(answers).toEqual([
      [null, 'hsetnx'],
      [null, 'sadd'],
      [null, 'evalsha'],
    ]);
    expect(redis.sent).toEqual(['hsetnx', 'sadd', 'evalsha', 'evalsha']);
  });

  it('sends a command answered TRYAGAIN again as long as the move lasts (past 16 tries), with a bounded backoff', async () => {
    vi.useFakeTimers();
    const redis = fakeRedis((command, round) =>
      command.name === 'evalsha' && round <= 40
        ? reply('TRYAGAIN Multiple keys request during rehashing of slot')
        : [null, 'done'],
    );
    const exec = redis.ridden(['hsetnx', 'evalsha']).exec();
    await vi.runAllTimersAsync();

    expect(await exec).toEqual([
      [null, 'done'],
      [null, 'done'],
    ]);
    expect(redis.sent.filter((name) => name === 'hsetnx')).toHaveLength(1);
    expect(redis.sent.filter((name) => name === 'evalsha')).toHaveLength(41);
    expect(redis.gaveUp).toEqual([]);
  });

  it('sends again a script answered NOSCRIPT after its EVAL met the move (the node never learned it)', async () => {
    const redis = fakeRedis((command, round) =>
      command.name === 'evalsha' && round === 1
        ? reply('NOSCRIPT No matching script. Please use EVAL.')
        : [null, 1],
    );
    expect(await redis.ridden(['hset', 'evalsha']).exec()).toEqual([
      [null, 1],
      [null, 1],
    ]);
  });

  it('gives up a loop of redirections (no TRYAGAIN between) as ioredis does, and reports it', async () => {
    const redis = fakeRedis((command) =>
      command.name === 'get' ? reply('MOVED 1 127.0.0.1:7001') : [null, 1],
    );
    const answers = await redis.ridden(['set', 'get']).exec();

    expect(answers?.[1]?.[0]?.message).toBe('MOVED 1 127.0.0.1:7001');
    expect(redis.sent.filter((name) => name === 'get')).toHaveLength(17);
    expect(redis.gaveUp).toHaveLength(1);
  });

  it('leaves any other error as it was answered, sending nothing again', async () => {
    const redis = fakeRedis((command) =>
      command.name === 'incr' ? reply('WRONGTYPE Operation') : [null, 1],
    );
    const answers = await redis.ridden(['set', 'incr']).exec();
    expect(answers?.[1]?.[0]?.message).toBe('WRONGTYPE Operation');
    expect(redis.sent).toEqual(['set', 'incr']);
  });
});

describe('a MULTI met by a slot on the move', () => {
  it('is sent again whole once discarded by a migration reply (nothing of it ran)', async () => {
    const redis = fakeRedis((command, round) =>
      command.name === 'hset' && round === 1 ? reply('ASK 7905 127.0.0.1:7002') : [null, command.name],
    );
    const answers = await redis.ridden(['hincrby', 'hset'], true).exec();

    expect(answers).toEqual([
      [null, 'hincrby'],
      [null, 'hset'],
    ]);
    expect(redis.sent).toEqual(['multi', 'hincrby', 'hset', 'exec', 'multi', 'hincrby', 'hset', 'exec']);
  });

  it('throws any other refusal as it was answered', async () => {
    const redis = fakeRedis((command) =>
      command.name === 'hset' ? reply('OOM command not allowed') : [null, 1],
    );
    await expect(redis.ridden(['hset'], true).exec()).rejects.toThrow(/EXECABORT/);
    expect(redis.sent.filter((name) => name === 'exec')).toHaveLength(1);
  });
});

describe('migration replies', () => {
  it('are told from other errors, also as ioredis words a given-up one', () => {
    expect(migrationReplyOf(new Error('TRYAGAIN Multiple keys request during rehashing of slot'))).toBe(
      'TRYAGAIN',
    );
    expect(migrationReplyOf(new Error('ASK 7905 127.0.0.1:7002'))).toBe('ASK');
    expect(migrationReplyOf(new Error('MOVED 7905 127.0.0.1:7002'))).toBe('MOVED');
    expect(migrationReplyOf(new Error('CLUSTERDOWN Hash slot not served'))).toBe('CLUSTERDOWN');
    expect(migrationReplyOf(new Error('ERR ASKING is not allowed'))).toBeNull();
    expect(migrationReplyOf('TRYAGAIN')).toBeNull();
  });

  it('discard a MULTI only when every refusal in it was one', () => {
    const aborted = (...previous: string[]) =>
      Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), {
        previousErrors: previous.map((message) => new Error(message)),
      });
    expect(discardedByMigration(aborted('ASK 1 127.0.0.1:7002'))).toBe('ASK');
    expect(discardedByMigration(aborted('ASK 1 127.0.0.1:7002', 'OOM command not allowed'))).toBeNull();
    expect(discardedByMigration(aborted())).toBeNull();
    expect(discardedByMigration(new Error('TRYAGAIN Multiple keys request during rehashing of slot'))).toBe(
      'TRYAGAIN',
    );
  });

  it('wait 50 ms, doubling, at most a second', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(tryAgainDelayMs)).toEqual([50, 100, 200, 400, 800, 1000, 1000]);
  });
});
