import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { type FailureRig, KEY_A, useFailureRig } from './support/rig.js';

const KEY_B = 'sk_fail_b';

/** A run of seller A put in the queue (no worker: it stays queued); resolves to its id. */
async function queuedRunOfA(rig: FailureRig, env: NodeJS.ProcessEnv, file = 'a.csv'): Promise<string> {
  const source = await rig.csv(file, catalogRows(3));
  const imported = await rig.cli(['import', source, '--key-env', 'SELLER_API_KEY_A'], env);
  expect(imported.code, imported.stderr).toBe(0);
  return runIdOf(imported.stdout);
}

describe('`catalog-sync cancel` given a key', () => {
  const rig = useFailureRig();
  const env = () => rig.env(undefined, { SELLER_API_KEY_A: KEY_A, SELLER_API_KEY_B: KEY_B });

  it("refuses, as approve does, a --key-env holding another seller's key than the run's; its own seller's key cancels", async () => {
    rig.sandbox.addKey(KEY_B, 'seller-b');
    const runId = await queuedRunOfA(rig, env());

    const refused = await rig.cli(['cancel', runId, '--key-env', 'SELLER_API_KEY_B'], env());

    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `catalog-sync: $SELLER_API_KEY_B holds another seller's key than run ${runId}'s: not cancelled ` +
        '(cancel needs no key: without --key-env it cancels any run)\n',
    );
    expect((await rig.status(runId)).state).toBe('queued');

    const cancelled = await rig.cli(['cancel', runId, '--key-env', 'SELLER_API_KEY_A'], env());
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect((await rig.status(runId)).state).toBe('cancelled');
  });

  it('still needs no key: without --key-env (whatever SELLER_API_KEY holds), or with --key-env naming an unset variable', async () => {
    const first = await queuedRunOfA(rig, env());
    const second = await queuedRunOfA(rig, env(), 'other.csv');

    // SELLER_API_KEY is seller B's here: a default, not a choice of this command line.
    const withoutKeyEnv = await rig.cli(['cancel', first], rig.env(KEY_B));
    const unset = await rig.cli(['cancel', second, '--key-env', 'SELLER_API_KEY_C'], env());

    expect(withoutKeyEnv.code, withoutKeyEnv.stderr).toBe(0);
    expect(unset.code, unset.stderr).toBe(0);
    expect((await rig.status(first)).state).toBe('cancelled');
    expect((await rig.status(second)).state).toBe('cancelled');
  });

  it('refuses a --key-env that may not hold a key, in one line naming it', async () => {
    const runId = await queuedRunOfA(rig, env());

    const refused = await rig.cli(['cancel', runId, '--key-env', 'HOME'], env());

    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^catalog-sync: --key-env: .*HOME.*\n$/);
    expect((await rig.status(runId)).state).toBe('queued');
  });
});
