/**
 * The bare client (goals/bare-client.ts) as a process of its own, for `perf record` to sample:
 *   node dist/bench/v8-parts/bare-process.js <base URL> <key> <rows> <concurrency>
 */
import { bareClientSeconds } from '../goals/bare-client.js';
import { generateRows } from '../sync/catalog.js';

const [baseUrl, key, rows, concurrency] = process.argv.slice(2);
if (!baseUrl || !key) throw new Error('usage: bare-process.js <base URL> <key> <rows> <concurrency>');
await bareClientSeconds(baseUrl, key, generateRows(Number(rows)), Number(concurrency));
