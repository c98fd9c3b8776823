import { describe, expect, it } from 'vitest';
import type { ResetHeader } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useFailureRig } from './support/rig.js';

/**
 * An hour-long sandbox day, unless the hour turns within two minutes: then a day of 61 minutes,
 * whose boundaries fall elsewhere. The reset is then always well ahead of the run.
 */
function dayLengthWithRoom(now = Date.now()): number {
  const roomy = [3_600_000, 3_660_000].find((length) => length - (now % length) > 120_000);
  return roomy ?? 3_600_000;
}

/** The instant the sandbox's day ends, as the sandbox computes it (days aligned to the epoch). */
function sandboxReset(dayLengthMs: number, at = Date.now()): number {
  return (Math.floor(at / dayLengthMs) + 1) * dayLengthMs;
}

const TOLERANCE_MS = 2000;

describe.each([
  ['Retry-After (seconds)', 'retry-after'],
  ['RateLimit-Reset (seconds)', 'ratelimit-reset'],
  ['X-RateLimit-Reset (epoch seconds)', 'x-ratelimit-reset'],
] as Array<[string, ResetHeader]>)('when a 429 carries %s', (_, resetHeader) => {
  let dayLengthMs = 3_600_000;
  const rig = useFailureRig(() => {
    dayLengthMs = dayLengthWithRoom();
    return { dailyLimit: 3, dayLengthMs, resetHeader };
  });

  it("pauses the seller until the sandbox's reset instant", async () => {
    const source = await rig.csv('catalog.csv', catalogRows(10));
    const expected = sandboxReset(dayLengthMs);

    const result = await rig.cli(['run', source, '--no-wait']);

    expect(result.code).toBe(4);
    const status = await rig.status(runIdOf(result.stderr));
    expect(status.seller.pausedUntil).not.toBeNull();
    expect(Math.abs((status.seller.pausedUntil ?? 0) - expected)).toBeLessThanOrEqual(TOLERANCE_MS);
  });
});

describe('when a 429 carries no reset header', () => {
  const rig = useFailureRig(() => ({ dailyLimit: 3, resetHeader: 'none' }));

  it('pauses the seller until the next --daily-reset (UTC)', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(10));
    // A whole minute between 90 and 150 seconds from now (it may fall on the next UTC day).
    const reset = Math.floor((Date.now() + 150_000) / 60_000) * 60_000;
    const hhmm = new Date(reset).toISOString().slice(11, 16);

    const result = await rig.cli(['run', source, '--no-wait', '--daily-reset', hhmm]);

    expect(result.code).toBe(4);
    const status = await rig.status(runIdOf(result.stderr));
    expect(status.seller.pausedUntil).not.toBeNull();
    expect(Math.abs((status.seller.pausedUntil ?? 0) - reset)).toBeLessThanOrEqual(TOLERANCE_MS);
  });
});
