#!/usr/bin/env node
// Thin launcher: the CLI is compiled and bundled into dist/ by `npm ci` (the `prepare` script).
// First, before anything allocates: how far the heap may grow between collections (peak memory).
import '../dist/bundle/heap-growth.js';
// Next: a password on the command line (`--redis-url rediss://USER:PASSWORD@…`) masked in what ps shows.
import '../dist/bundle/ps-title.js';
// Then a line for an interrupt that comes before the command listens for one (early-signals.js).
import './early-signals.js';

// Loaded only now: a static import would be parsed and linked before early-signals.js runs, and an
// interrupt while the bundle loads (a few hundred ms on a busy machine) would end with no line.
const { exitAfterFlush, main } = await import('../dist/bundle/catalog-sync.js');

// `catalog-sync report <id> | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const code = await main(process.argv);
// Every command has closed what it opened by now; a handle left behind (a Redis reconnect timer
// after Redis went away) must not keep a cron job hanging. What it printed leaves first.
await exitAfterFlush(code);
