import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { runSpec } from '../../support/run-record.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { useDashboards } from './support.js';

/** The Debian package `chromium-headless-shell` (`.ci/run` installs it); never a browser download. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';

const DAY = Date.parse('2026-03-02T02:00:00Z');

// A fresh machine with Node and Redis alone must pass `npm test`: without the browser this suite is
// skipped, in one line that says so. CI (CI=true, where `.ci/run` installs it) requires it.
const HAS_CHROMIUM = existsSync(CHROMIUM);
const REQUIRE_CHROMIUM = process.env.CI === 'true' || process.env.CI === '1';
if (!HAS_CHROMIUM && !REQUIRE_CHROMIUM) {
  process.stderr.write(
    `skipped: the dashboard's browser tests (no Chromium at ${CHROMIUM}: apt-get install chromium-headless-shell, or set CHROMIUM_PATH)\n`,
  );
}

/** Writes a run record as RunStore keeps it, with the fields the guards, approve, revert and cancel add. */
async function writeRun(
  runs: RunStore,
  source: string,
  fields: Record<string, string | number>,
): Promise<string> {
  const run = await runs.create(runSpec({ source, sellerRef: 'ab12cd34ef56ab78' }), DAY);
  await runs.redis.hset(runs.keys.run(run.id), { produced: 1, snapshotReady: 1, ...fields });
  return run.id;
}

describe.skipIf(!HAS_CHROMIUM && !REQUIRE_CHROMIUM)('the dashboard in a real headless Chromium', () => {
  const openDashboard = useDashboards();
  let browser: Browser;
  let prefix: string;
  let redis: Redis;

  beforeAll(async () => {
    if (!HAS_CHROMIUM) {
      throw new Error(
        `CI requires Chromium, and there is none at ${CHROMIUM}: apt-get install chromium-headless-shell, or set CHROMIUM_PATH`,
      );
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });

  it('shows a held run with what tripped, an approved, a reverted and a cancelled run, with their counts, and logs no error', {
    timeout: 60_000,
  }, async () => {
    const runs = new RunStore(redis, new RedisKeys(prefix));
    const held = await writeRun(runs, '/data/held.csv', {
      state: 'held',
      heldReason: 'max-updates: 40 of 50 products would be updated (limit 10%)',
      total: 50,
      settled: 50,
      'action:update': 40,
      'status:held': 40,
      'pair:update:held': 40,
    });
    const approved = await writeRun(runs, '/data/approved.csv', {
      state: 'done',
      finishedAt: DAY + 60_000,
      approvedAt: DAY + 3_600_000,
      heldReason: 'max-invalid: 3 invalid rows (limit 2)',
      total: 7,
      settled: 7,
      'action:create': 4,
      'pair:create:ok': 4,
      'action:invalid': 3,
      'status:failed': 3,
      'pair:invalid:failed': 3,
    });
    const reverted = await writeRun(runs, '/data/reverted.csv', {
      state: 'done',
      finishedAt: DAY + 60_000,
      revertedAt: DAY + 7_200_000,
      revertCounts: JSON.stringify({ reverted: 12, failed: 1 }),
      total: 13,
      settled: 13,
      'action:update': 13,
      'pair:update:ok': 13,
    });
    const cancelled = await writeRun(runs, '/data/cancelled.csv', {
      state: 'cancelled',
      cancelledAt: DAY + 120_000,
      total: 20,
      settled: 20,
      'action:skipped': 20,
      'pair:skipped:ok': 20,
    });
    const dashboard = await openDashboard({
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    });

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    await page.goto(dashboard.url);
    const row = (id: string) => page.locator('#runs tr', { hasText: id });
    await row(cancelled).waitFor();

    const heldRow = (await row(held).innerText()).replace(/\s+/g, ' ');
    expect(heldRow).toContain('held: max-updates: 40 of 50 products would be updated (limit 10%)');
    expect(heldRow).toContain('40 held');
    expect(
      await row(held)
        .locator('td.state')
        .evaluate((td) => td.className),
    ).toContain('state-held');

    const approvedRow = (await row(approved).innerText()).replace(/\s+/g, ' ');
    expect(approvedRow).toContain('approved 2026-03-02 03:00 UTC');
    expect(approvedRow).toContain('4 created');
    expect(approvedRow).toContain('3 invalid');

    const revertedRow = (await row(reverted).innerText()).replace(/\s+/g, ' ');
    expect(revertedRow).toContain('reverted 2026-03-02 04:00 UTC: 1 failed, 12 reverted');
    expect(revertedRow).toContain('13 updated');

    const cancelledRow = (await row(cancelled).innerText()).replace(/\s+/g, ' ');
    expect(cancelledRow).toContain('cancelled');
    expect(cancelledRow).toContain('cancelled 2026-03-02 02:02 UTC');
    expect(cancelledRow).toContain('20 / 20');
    expect(cancelledRow).toContain('20 skipped');
    expect(cancelledRow).toContain('2 min 0 s');

    expect(await page.locator('#problem').innerText()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });
});
