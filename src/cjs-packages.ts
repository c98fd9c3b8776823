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
function requiredOnce<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}

export const bullmq = requiredOnce<typeof BullMQ>('bullmq');

export const ioredis = requiredOnce<typeof IORedis>('ioredis');

export const commander = requiredOnce<typeof Commander>('commander');

export const pino = requiredOnce<typeof Pino.pino>('pino');

export const iconv = requiredOnce<typeof Iconv>('iconv-lite');
