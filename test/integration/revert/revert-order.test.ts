import { afterEach, describe, expect, it } from 'vitest';
import { type Gate, gate } from '../../support/gate.js';
import { type CliResult, runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';
import { changingRun, nameAndPrice, putsSinceReset } from './support.js';

/**
 * README and docs/running.md: a seller's runs are written one after the other. `revert` writes to
 * the seller's products too: it does not begin while another run of the seller is queued or under
 * way, and a run begun while it writes waits for it (docs/architecture.md, decision 10).
 */
describe('`revert` keeps its place among the seller’s runs', () => {
  /** LAMP's revert PUT (its price back to 20) waits for this gate while it is set. */
  let revertPut: Gate | null = null;
  let held: Gate = gate();
  const pipeline = usePipeline({
    hold: (request) => {
      if (!revertPut || request.method !== 'PUT' || !/"price":20\b/.test(request.body ?? ''))
        return undefined;
      held.open();
      return revertPut.promise;
    },
  });

  afterEach(() => {
    // A test that failed half way leaves no revert waiting on the gate.
    revertPut?.open();
    revertPut = null;
  });

  it('refuses, in one line and exit 2, while a later run of the seller is queued: nothing is sent', async () => {
    const { runId } = await changingRun(pipeline);
    const later = await pipeline.cli([
      'import',
      await pipeline.csv('later.csv', [{ sku: 'LAMP', name: 'Desk lamp, brass', price: '30' }]),
    ]);
    expect(later.code, later.stderr).toBe(0);
    const laterId = runIdOf(later.stdout);
    pipeline.sandbox.resetStats();

    const refused = await pipeline.cli(['revert', runId]);

    // Before: exit 0, LAMP put back at 20, and the queued run's worker then wrote 30 over it.
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `run ${laterId} of the same seller is queued \\(.*nothing was read or sent\\); wait until it has ended, or \`catalog-sync cancel ${laterId}\``,
        ),
      ),
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);

    // Once that run has ended (cancelled here), the revert goes ahead.
    expect((await pipeline.cli(['cancel', laterId])).code).toBe(0);
    const reverted = await pipeline.cli(['revert', runId]);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
  });

  it('a run begun while the revert writes waits for it, and its values are the ones that stay', {
    timeout: 60_000,
  }, async () => {
    const { runId } = await changingRun(pipeline);
    revertPut = gate();
    held = gate();
    pipeline.sandbox.resetStats();

    const revert = pipeline.cli(['revert', runId, '--concurrency', '1']);
    await held.promise;
    const source = await pipeline.csv('later.csv', [{ sku: 'LAMP', name: 'Desk lamp', price: '30' }]);
    const later: Promise<CliResult> = pipeline.cli(['run', source]);
    // The later run exists and says it waits for the revert's run (status, `order` line).
    await until('the later run, begun', async () => {
      const latest = JSON.parse((await pipeline.cli(['status', '--json'])).stdout) as { id: string };
      return latest.id !== runId;
    });
    const latest = JSON.parse((await pipeline.cli(['status', '--json'])).stdout) as Record<string, unknown>;
    expect(latest.waitsForRun).toBe(runId);
    // Before: the later run's PUT of 30 went out while the revert's PUT was held.
    expect(putsSinceReset(pipeline).filter((put) => put.status === 200)).toEqual([]);

    revertPut.open();
    const [reverted, ran] = [await revert, await later];

    expect(reverted.code, reverted.stderr).toBe(0);
    expect(ran.code, ran.stderr).toBe(0);
    // Written after the revert: the later run's price stays.
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 30 });
  });
});
