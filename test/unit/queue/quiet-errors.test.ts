import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/logger.js';
import { throttledErrorLog } from '../../../src/queue/quiet-errors.js';

/** A logger that keeps each line's level and message. */
function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (_fields: unknown, message: string) => lines.push(`${level}: ${message}`);
  return { logger: { info: at('info'), warn: at('warn') } as unknown as Logger, lines };
}

describe("BullMQ's errors in a worker's log", () => {
  it('says a job lock lost while Redis was away at info, its refused end too: the chunk is handed out again', () => {
    const { logger, lines } = recordingLogger();
    for (const message of [
      'could not renew lock for job r-0',
      'Lock mismatch for job r-1. Cmd moveToFinished from active',
      'Missing lock for job r-2. moveToFinished',
    ]) {
      throttledErrorLog(logger, 'queue q', 0)(new Error(message));
    }

    expect(lines).toEqual([
      'info: queue q: could not renew lock for job r-0 (retrying)',
      'info: queue q: Lock mismatch for job r-1. Cmd moveToFinished from active (retrying)',
      'info: queue q: Missing lock for job r-2. moveToFinished (retrying)',
    ]);
  });

  it('warns of anything else', () => {
    const { logger, lines } = recordingLogger();
    throttledErrorLog(logger, 'queue q', 0)(new Error('OOM command not allowed'));

    expect(lines).toEqual(['warn: queue q: OOM command not allowed (retrying)']);
  });
});
