/**
 * What the launcher (bin/catalog-sync.js) runs, after heap-growth.ts. `npm run build` bundles both
 * with the modules they import into dist/bundle/ (rolldown.config.mjs): a file each, chunks for the
 * code they share and for each command's own, loaded as main.ts loads them (lazily). Loaded as the
 * 330 files of dist/src, each resolved, read and compiled on its own, every command started with
 * ~0.2 s more CPU (`catalog-sync run --help`, BENCHMARKS.md, issue 31): paid by each cron job, and
 * counted per row of a run. The packages stay outside, required from node_modules (cjs-packages.ts).
 */
export { exitAfterFlush } from './exit-after-flush.js';
export { main, registrations } from './main.js';
