import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';
import type * as Commander from 'commander';
import type Iconv from 'iconv-lite';
import type * as IORedis from 'ioredis';
import type * as Pino from 'pino';

/**
 * The CommonJS packages the CLI runs on, loaded with `require` rather than `import`. Imported from
 * ESM, a CommonJS module is first parsed by Node's cjs-module-lexer for its export names, and
 * bullmq's and ioredis's indexes re-export every file, each parsed in turn: ~65 ms of CPU at every
 * start of the CLI (issue 31: a third of the fixed CPU of `run`, counted per created row of a
 * 2,000-row sync); commander, pino and iconv-lite a few ms more, and the lexer's own start. Required,
 * they run as they would anyway, unparsed. Types still come from the packages (`import type`), and
 * a test importing one gets the very same module (one CJS cache). Every value taken from them goes
 * through here (`bullmq().Queue`): one `import` of a package left in the CLI's graph would bring the parsing back.
 */
const require = createRequire(import.meta.url);

/**
 * A package's exports, required at the first call: a command that never calls one (`status` has no
 * use for bullmq) never loads it, as when each module imported the packages it used.
 */
function loadedOnce<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/** What the tool uses of bullmq. */
type BullMQUsed = Pick<
  typeof BullMQ,
  'Queue' | 'Worker' | 'Job' | 'DelayedError' | 'RateLimitError' | 'getNextMillis'
>;

/**
 * bullmq's classes from their own files: its index also loads its flow producer, its Postgres
 * backend, the other Redis clients' adapters… 70 more files, ~13 ms of CPU at every start.
 * The package has no `exports` map, so these paths are its public layout; a version that moves
 * them fails test/unit/cjs-packages.test.ts, which checks each is the package's own export.
 */
export const bullmq = loadedOnce<BullMQUsed>(() => {
  const cjs = 'bullmq/dist/cjs/classes';
  const { Queue } = require(`${cjs}/queue.js`) as Pick<typeof BullMQ, 'Queue'>;
  const { Worker } = require(`${cjs}/worker.js`) as Pick<typeof BullMQ, 'Worker'>;
  const { Job } = require(`${cjs}/job.js`) as Pick<typeof BullMQ, 'Job'>;
  const { DelayedError, RateLimitError } = require(`${cjs}/errors/index.js`) as typeof BullMQ;
  const { getNextMillis } = require(`${cjs}/job-scheduler.js`) as Pick<typeof BullMQ, 'getNextMillis'>;
  return { Queue, Worker, Job, DelayedError, RateLimitError, getNextMillis };
});

export const ioredis = loadedOnce(() => require('ioredis') as typeof IORedis);

export const commander = loadedOnce(() => require('commander') as typeof Commander);

export const pino = loadedOnce(() => require('pino') as typeof Pino.pino);

export const iconv = loadedOnce(() => require('iconv-lite') as typeof Iconv);
