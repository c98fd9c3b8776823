import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { eventually, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const KEY_B = 'sk_fail_b';
const SELLER_B = 'seller-b';
const DAY_MS = 86_400_000;
// Seller A's sandbox clock stands still ten minutes before its day turns: A stays paused for the
// whole test, however long it takes, and its 429s still say when the (distant) reset comes.
const FROZEN_NOW = Date.UTC(2030, 0, 1) - 600_000;

describe("a second seller's run while the first seller is paused on its daily limit", () => {
  // Seller A: 20 requests a day. Seller B: its own API, no limit.
  const rig = useFailureRig(() => ({ dailyLimit: 20, dayLengthMs: DAY_MS, now: () => FROZEN_NOW }));
  let sandboxB: Sandbox | undefined;
  afterEach(async () => {
    await sandboxB?.close();
    sandboxB = undefined;
  });

  it('keeps going in the same worker process and finishes while the first stays paused', {
    timeout: 60_000,
  }, async () => {
    sandboxB = await startSandbox({ keys: [{ key: KEY_B, seller: SELLER_B }] });
    const rowsA = catalogRows(120);
    const rowsB = catalogRows(150, 1001);
    const sourceA = await rig.csv('a.csv', rowsA);
    const sourceB = await rig.csv('b.csv', rowsB);
    // One worker for two APIs: its environment names the second host (CATALOG_SYNC_API_HOSTS).
    const envB = rig.env(KEY_A, {
      SELLER_API_BASE_URL: sandboxB.baseUrl,
      SELLER_API_KEY_B: KEY_B,
      CATALOG_SYNC_API_HOSTS: new URL(rig.sandbox.baseUrl).host,
    });

    const runA = runIdOf((await rig.cli(['import', sourceA])).stdout);
    rig.spawn(['worker', '--concurrency', '4'], envB);
    await eventually('seller A to be paused', async () => {
      const status = await rig.status(runA);
      return status.seller.pausedUntil !== null ? status : undefined;
    });
    const imported = await rig.cli(['import', sourceB, '--key-env', 'SELLER_API_KEY_B'], envB);
    expect(imported.code).toBe(0);
    const runB = runIdOf(imported.stdout);
    const doneB = await runDone(rig, runB);

    expect(doneB.counts).toMatchObject({ created: rowsB.length, failed: 0 });
    expectExactCatalog(sandboxB.products(SELLER_B), rowsB);
    const statusA = await rig.status(runA);
    expect(statusA.state).not.toBe('done');
    expect(statusA.seller.pausedUntil).toBeGreaterThan(Date.now());
    expect(rig.sandbox.products(SELLER_A).length).toBeLessThan(20);
  });
});
