/**
 * What a process allocates, garbage included, by the function that allocated it: V8's sampling
 * heap profiler with the objects the collector already freed kept in the samples. Preloaded into a
 * child, it prints the total and the top sites to stderr when the child exits (`process.exit`):
 *
 *   npm run build && IMPORT_NODE_ARGS='--require ./bench/alloc-profile.cjs' IMPORT_OUTPUT=/tmp/import.out \
 *     node dist/bench/producer-import.js 300000 && grep -A 20 '^allocated' /tmp/import.out
 *
 * Sampled every 32 KiB: totals are estimates, good to compare two trees, not to the byte.
 */
const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', {
  samplingInterval: 32768,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});

function report(profile) {
  const bySite = new Map();
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/.*\/(node_modules|dist)\//, '')}:${lineNumber}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const total = [...bySite.values()].reduce((sum, bytes) => sum + bytes, 0);
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 20);
  const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
  process.stderr.write(
    `allocated ${mb(total)}\n${top.map(([site, bytes]) => `${mb(bytes).padStart(8)} ${site}`).join('\n')}\n`,
  );
}

// The inspector answers synchronously within this thread, so the report is written before exit.
const exit = process.exit;
process.exit = function exitAfterReport(code) {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) report(result.profile);
  });
  return exit.call(process, code);
};
