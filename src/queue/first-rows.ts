import { READ_HELD_FOR_FIRST_ROWS_MS } from '../defaults.js';

/**
 * A worker of this process starts the run (`run`): after its first `chunks` chunks the source's read
 * waits for `begun` (the run's first rows under way) or `maxMs` (READ_HELD_FOR_FIRST_ROWS_MS),
 * whichever is first, so that parsing the rest of the source does not hold up the run's list read
 * and first writes on the one thread they share.
 */
export interface FirstRows {
  chunks: number;
  begun: Promise<unknown>;
  maxMs?: number;
}

/** Resolves once `begun` does, or after `maxMs`; never rejects. */
export async function untilFirstRows({
  begun,
  maxMs = READ_HELD_FOR_FIRST_ROWS_MS,
}: FirstRows): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  await Promise.race([begun.catch(() => undefined), cap]);
  clearTimeout(timer);
}
