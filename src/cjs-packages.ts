import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';
import type * as IORedis from 'ioredis';

/**
 * bullmq and ioredis, loaded with `require` rather than `import`. Both are CommonJS packages whose
 * index re-exports every file: imported from ESM, Node's cjs-module-lexer parses each of those
 * files to find their export names before running them, ~65 ms of CPU at every start of the CLI
 * (issue 31: a third of the fixed CPU of `run`, counted per created row of a 2,000-row sync).
 * Required, they run as they would anyway, unparsed. Types still come from the packages
 * (`import type`), and a test importing either package gets the very same module (one CJS cache).
 * Every value taken from them goes through here: one `import` of either package left in the CLI's
 * graph would bring the parsing back.
 */
const require = createRequire(import.meta.url);

export const bullmq = require('bullmq') as typeof BullMQ;

export const ioredis = require('ioredis') as typeof IORedis;
