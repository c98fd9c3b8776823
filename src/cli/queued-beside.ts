import { bullmq } from '../cjs-packages.js';
import { queueOptions } from '../queue/queue-options.js';
import { runsInQueue } from '../queue/queued-runs.js';
import type { RunRecord } from '../runs/run-store.js';
import type { Runtime } from './runtime.js';

/** Run ids named in a line, at most; the others are counted. */
const NAMED = 3;

/**
 * A dry run plans against the seller's products as they are now, and its process does not take the
 * rows of the seller's other runs still queued (queue/run-queue.ts): a `run` of the source now would
 * send those first. Said in one line, so that the plan is not read as all that is coming; null when
 * the seller's queue holds no other run.
 */
export async function queuedBesideLine(runtime: Runtime, run: RunRecord): Promise<string | null> {
  const queue = new (bullmq().Queue)(
    runtime.keys.sellerQueue(run.sellerRef),
    queueOptions(runtime.redis, runtime.config.prefix),
  );
  queue.on('error', () => undefined);
  try {
    const others = (await runsInQueue(queue)).filter((id) => id !== run.id);
    if (others.length === 0) return null;
    const more = others.length > NAMED ? ` and ${others.length - NAMED} more` : '';
    const runs = `${others.length === 1 ? 'run' : 'runs'} ${others.slice(0, NAMED).join(', ')}${more}`;
    return (
      `catalog-sync: this plan is against the seller's products as they are now; ${runs} of the seller ` +
      `${others.length === 1 ? 'is' : 'are'} still queued, not in it, and go on with any \`catalog-sync worker\` ` +
      'or the next `catalog-sync run`'
    );
  } finally {
    await queue.close();
  }
}
