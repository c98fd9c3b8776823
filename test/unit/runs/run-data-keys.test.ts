import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { keptAfterEndKeys, runDataKeys, runningOnlyKeys } from '../../../src/runs/run-data-keys.js';

describe("a run's data keys", () => {
  const keys = new RedisKeys('cs');
  const id = '20260101T000000-abcdef';

  it('are each in one list: kept after the end, or dropped at it', () => {
    const kept = keptAfterEndKeys(keys, id);
    const dropped = runningOnlyKeys(keys, id);
    expect(kept.filter((key) => dropped.includes(key))).toEqual([]);
    expect(new Set(runDataKeys(keys, id)).size).toBe(kept.length + dropped.length);
  });

  it('keep what report and report --failed-only read after the end', () => {
    expect(keptAfterEndKeys(keys, id)).toEqual(
      expect.arrayContaining([
        keys.outcomes(id),
        keys.missing(id),
        keys.failedSources(id),
        keys.parentSources(id),
      ]),
    );
  });
});
