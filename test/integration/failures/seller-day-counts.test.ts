import { describe, expect, it } from 'vitest';
import { parseLearned } from '../../../src/runs/learned-limit.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';
import { eventually, type FailureRig, useFailureRig } from './support/rig.js';

/** The seller's learned limit (the only seller under the rig's prefix), or null. */
function learnedLimit(rig: FailureRig): Promise<number | null> {
  return withRedis(async (redis) => {
    const [key] = await redis.keys(`${rig.prefix}:*:learned-limit`);
    return key ? (parseLearned(await redis.get(key))?.limit ?? null) : null;
  });
}

describe("the seller's requests of the day", () => {
  // Six requests a day (the sandbox's day is the quota day: 24 h from 00:00 UTC).
  const rig = useFailureRig(() => ({ dailyLimit: 6 }));

  it('the first limit a 429 teaches counts the requests of the runs before it', {
    timeout: 60_000,
  }, async () => {
    // A list read and 3 creates: 4 requests, no 429, so no limit known yet.
    const first = await rig.cli(['run', await rig.csv('ua.csv', catalogRows(3))]);
    expect(first.code, first.stderr).toBe(0);

    // A list read and a create pass, the next create meets the 429.
    const second = await rig.cli([
      'run',
      await rig.csv('ub.csv', catalogRows(3, 4)),
      '--no-wait',
      '--concurrency',
      '1',
    ]);
    expect(second.code, second.stderr).toBe(4);

    const accepted = rig.sandbox.requests().filter((request) => request.status !== 429).length;
    expect(accepted).toBe(6);
    expect(await learnedLimit(rig)).toBe(accepted);
  });
});

describe("a run's status while its requests are under way", () => {
  let received = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The first create waits until the test has read `status`: the run is under way, one write in flight.
  const rig = useFailureRig(() => ({
    hold: (request) => {
      received++;
      return request.method === 'POST' && received <= 2 ? released : undefined;
    },
  }));

  it('counts no request of the day that was not sent', { timeout: 60_000 }, async () => {
    const child = rig.spawn(['run', await rig.csv('catalog.csv', catalogRows(3)), '--concurrency', '1']);
    try {
      await eventually('the first create to reach the API', () => (received >= 2 ? true : undefined));
      const status = await rig.status();
      const text = (await rig.cli(['status'])).stdout;

      expect(status.state).toBe('running');
      // The list read and the create held: no more reached the API, whatever the tool reserved.
      expect(status.seller.requestsToday).toBeLessThanOrEqual(received);
      const today = Number(/(\d+) today for seller/.exec(text)?.[1]);
      expect(today, text).toBeLessThanOrEqual(received);
      // What the block the run holds may still send is said apart.
      expect(text).toMatch(
        /today for seller .* \(and up to \d+ more reserved, by chunks under way or by a process that stopped before giving them back: not all sent\)/,
      );
    } finally {
      release();
    }
    expect((await child.exited).code, child.stderr()).toBe(0);
    // Once the run is over, the count is every request sent.
    const done = await rig.status(runIdOf(child.stdout()));
    expect(done.seller.requestsToday).toBe(rig.sandbox.requests().length);
  });
});

describe("the seller's day once a 429 taught the API's reset (not --daily-reset)", () => {
  // The API's day: 10 s, its first one beginning as the test does (a clock shifted by the sandbox's
  // own seam), so that the run meets the limit in it, and its next day, begun at a reset that is
  // not --daily-reset (00:00), holds the rest of the test. Its 429 says the reset in seconds.
  const LIMIT = 8;
  const DAY_MS = 10_000;
  let shift = 0;
  const apiNow = () => Date.now() - shift;
  const rig = useFailureRig(() => ({
    dailyLimit: LIMIT,
    dayLengthMs: DAY_MS,
    resetHeader: 'retry-after',
    now: apiNow,
  }));
  const apiDay = (at: number) => Math.floor(at / DAY_MS);

  /** The requests the sandbox served in the API's current day (429s included: each is a request). */
  const servedToday = () =>
    rig.sandbox.timedRequests().filter((r) => apiDay(r.at) === apiDay(apiNow())).length;

  it("counts `status`'s today and the plan's left today in the API's day, as the limiter does", {
    timeout: 60_000,
  }, async () => {
    // A list read and 12 creates: 8 pass, the 9th meets the 429, the rest go after the reset.
    const source = await rig.csv('ua.csv', catalogRows(12));
    // The API's day begins at the last whole second, as a daily reset does (a Retry-After in whole
    // seconds tells it to the second).
    shift = Math.floor(Date.now() / 1000) * 1000 - Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const first = await rig.cli(['run', source, '--concurrency', '1']);
    expect(first.code, first.stderr).toBe(0);
    const refused = rig.sandbox.timedRequests().filter((r) => r.status === 429);
    expect(
      refused.map((r) => apiDay(r.at)),
      'one 429, in the API day the test began in',
    ).toEqual([apiDay(apiNow()) - 1]);

    const today = servedToday();
    const text = (await rig.cli(['status'])).stdout;
    const status = await rig.status();
    const plan = await rig.cli(['run', await rig.csv('ub.csv', catalogRows(1, 101))]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(apiDay(apiNow()), "the API's day turned during the test: make DAY_MS longer").toBe(
      apiDay(refused[0]?.at ?? 0) + 1,
    );

    expect(today).toBeGreaterThan(0);
    // Before: every request since 00:00 UTC (14), more than the API allows in a day.
    expect(status.seller.requestsToday).toBe(today);
    expect(text).toMatch(new RegExp(`\\b${today} today for seller`));
    // Before: `8 a day (learned from the 429 of …), 0 left today: 1 day`.
    expect(plan.stdout).toMatch(
      new RegExp(`${LIMIT} a day \\(learned from the 429 of [-\\d]+\\), ${LIMIT - today} left today: 1 day`),
    );
  });
});
