import { describe, expect, it } from 'vitest';
import { waitAsAsked, waitLine } from '../../../src/sources/stores/store-wait.js';

const WHY = 'woocommerce://shop.example.test: the store answered 429 on /wp-json/wc/v3/products offset 99';
const NOW = Date.parse('2026-11-28T14:00:00Z');

/** A store's wait (a 429's Retry-After): said once as it begins when long, cut short by the read's signal. */
describe('a wait the store asked for', () => {
  it('says what was asked, what is waited (capped at 5 min) and when the read resumes', () => {
    expect(waitLine(WHY, 30_000, 30_000, NOW)).toBe(
      `${WHY} and asked to wait 30 s: resuming at 14:00:30 UTC`,
    );
    expect(waitLine(WHY, 400_000, 300_000, NOW)).toBe(
      `${WHY} and asked to wait 400 s: waiting 300 s (the longest wait catalog-sync takes), resuming at 14:05:00 UTC`,
    );
    expect(waitLine(WHY, null, 5000, NOW)).toBe(
      `${WHY} with no Retry-After: waiting 5 s, resuming at 14:00:05 UTC`,
    );
  });

  it('a long wait is said once, as it begins; a short one is not', async () => {
    const said: string[] = [];
    const slept: number[] = [];
    const options = {
      sleep: async (ms: number) => {
        slept.push(ms);
      },
      now: () => NOW,
      onWait: (line: string) => said.push(line),
    };

    await waitAsAsked(WHY, 4000, 5000, options);
    await waitAsAsked(WHY, 400_000, 5000, options);

    expect(said).toEqual([
      `${WHY} and asked to wait 400 s: waiting 300 s (the longest wait catalog-sync takes), resuming at 14:05:00 UTC`,
    ]);
    expect(slept).toEqual([4000, 300_000]);
  });

  it('ends at once, with the reason the read was given up for, when its signal is aborted', async () => {
    const given = new AbortController();
    const waiting = waitAsAsked(WHY, 300_000, 5000, { signal: given.signal });

    given.abort(new Error('given up'));

    await expect(waiting).rejects.toThrow('given up');
  });
});
