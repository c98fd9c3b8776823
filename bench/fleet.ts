/**
 * Issue 13: many sellers, one worker. Two parts, each on a redis-server of its own (free port, no
 * persistence), the sandbox in this process, and the built CLI spawned as a real `worker`:
 *
 * - connections: Redis connections (CLIENT LIST less the bench's own) and the worker's RSS at 10,
 *   300 and 3,000 registered sellers, idle (every run done, 15 s) and busy (a 5-row run each);
 *   the Redis CPU an idle worker costs.
 * - fair-share: a 20-row seller queued 3 s into a 20,000-row seller's run (latency 20 ms,
 *   --concurrency 8): time to its first write and to its run done, default --sellers-at-once and 1.
 *
 *   npm run build && node dist/bench/fleet.js [connections|fair-share]
 *   node dist/bench/fleet.js old-design DIR [sizes…]   the same connections part on another built
 *       checkout (e.g. 8c09a52, one BullMQ Worker per seller), default sizes 10 300
 *   FLEET_SIZES=10,300 …   other sizes for the connections part
 *
 * A benchmark reports; no verdict. Sellers are registered by `import` run in this process with the
 * build's own `main` (25 at a time), not by 3,000 child processes.
 */
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { projectRoot } from '../src/project-root.js';
import { type FleetFigures, measureFleet } from './fleet/connections.js';
import { type FairShare, measureFairShare } from './fleet/fair-share.js';
import { fairShareTable, fleetTable } from './fleet/table.js';
import type { Build } from './fleet/world.js';

const THIS: Build = { label: 'this', root: projectRoot() };
/** Busy runs are cut off here: 3,000 runs on the old design may take longer than the bench's budget. */
const BUSY_LIMIT_MS = 60_000;

function sizes(fallback: number[], given: string[]): number[] {
  const list = given.length > 0 ? given : (process.env.FLEET_SIZES?.split(',') ?? []);
  return list.length > 0 ? list.map(Number) : fallback;
}

async function connections(build: Build, list: number[]): Promise<void> {
  const rows: FleetFigures[] = [];
  for (const n of list) {
    console.error(`connections: ${build.label}, ${n} sellers…`);
    rows.push(await measureFleet(build, n, BUSY_LIMIT_MS));
    // Each line as soon as it is measured: a long size stopped by hand loses only its own.
    console.error(fleetTable(rows.slice(-1)).split('\n').at(-1));
  }
  console.log(`\nConnections and RSS (${build.label === 'this' ? 'this build' : build.root})\n`);
  console.log(fleetTable(rows));
}

async function fairShare(): Promise<void> {
  const rows: FairShare[] = [];
  for (const at of [null, 1]) {
    console.error(`fair-share: --sellers-at-once ${at ?? 'default'}…`);
    rows.push(await measureFairShare(THIS, at));
  }
  console.log('\nFair share: a 20-row seller behind a 20,000-row one (latency 20 ms, --concurrency 8)\n');
  console.log(fairShareTable(rows));
}

async function main(): Promise<void> {
  // Each in-process `run` listens for SIGINT/SIGTERM while it lasts, 25 at a time: not a leak.
  process.setMaxListeners(100);
  const [part = 'all', ...rest] = process.argv.slice(2);
  console.log(
    `fleet bench: ${cpus().length} cpus (${cpus()[0]?.model ?? 'unknown'}), ` +
      `${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}`,
  );
  const started = performance.now();
  if (part === 'connections' || part === 'all') await connections(THIS, sizes([10, 300, 3000], rest));
  if (part === 'fair-share' || part === 'all') await fairShare();
  if (part === 'old-design') {
    const [dir, ...given] = rest;
    if (!dir) throw new Error('old-design needs the folder of a built checkout, e.g. /tmp/fleet-old');
    await connections({ label: 'old (one Worker per seller)', root: resolve(dir) }, sizes([10, 300], given));
  }
  if (!['all', 'connections', 'fair-share', 'old-design'].includes(part)) {
    console.error(`unknown part "${part}": connections, fair-share or old-design DIR`);
    process.exitCode = 2;
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

// A client retrying, a timer left by a loaded `main` or a redis-server child must not keep the bench
// running, after a failure either.
await main().catch((error: unknown) => {
  console.error(`fleet bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
process.exit(process.exitCode ?? 0);
