import { countOf } from '../count-words.js';
import type { RunRecord } from '../runs/run-store.js';
import { runCounts } from '../runs/summary.js';

/**
 * What `run` says when SIGINT/SIGTERM came before its source was read to the end, once its own
 * workers have closed (the rows they had under way settled): the run is ended, what it wrote stays
 * written and is counted, the rest of the source was not sent, and a rerun finds what was written
 * (matched by its key: no second create). "its rows are not synced" was said of a run that had
 * created 200 products, and left the user to fear a rerun would create them again.
 */
export function interruptedReadLine(signal: string, id: string, run: RunRecord | null): string {
  const start = `catalog-sync: interrupted (${signal}) before the source was read to the end`;
  if (run?.dryRun) return `${start}: dry run ${id} is ended (nothing was written). Run it again.\n`;
  const c = run ? runCounts(run) : null;
  const written = c ? c.created + c.updated : 0;
  // A chunk of it still under way in another process: the run ends once that settles.
  const ended = !run || run.aborted ? 'is ended' : `is ending (catalog-sync status ${id})`;
  const wrote =
    written === 0
      ? 'nothing was written before it ended'
      : `${countOf(written, 'row')} ${written === 1 ? 'was' : 'were'} written before it ended (${c?.created} created, ${c?.updated} updated)`;
  return (
    `${start}: run ${id} ${ended}; ${wrote}, the rest of the source was not sent. ` +
    'Run it again: it sends the rest, and finds the rows written, creating none twice.\n'
  );
}
