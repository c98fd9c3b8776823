import { describe, expect, it } from 'vitest';
import { KEY_A, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';

const NEW_KEY = 'sk_fail_a_new';
const ROWS = 3;

/**
 * A dry run writes nothing to the API and nothing a seller's sync depends on: it makes no ref its
 * key's own (key-holder.ts). Checking a revoked key's replacement with a dry run before `resume`
 * must not keep the new key from being linked, and a key's dry run alone must not make its later
 * real run's 401 read as a revoked key's (resume told, where nothing is there to keep).
 */
describe('a dry run is no history of its key', () => {
  const rig = useFailureRig();

  /** KEY_A's products created, then KEY_A revoked and its run refused (exit 3); NEW_KEY serves the same account. */
  async function revokedAfterRun(): Promise<{ source: string; ref: string }> {
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const first = await rig.cli(['run', source], rig.env(KEY_A));
    expect(first.code, first.stderr).toBe(0);
    const ref = (await rig.status(runIdOf(first.stdout + first.stderr))).sellerRef;
    rig.sandbox.revokeKey(KEY_A);
    rig.sandbox.addKey(NEW_KEY, SELLER_A);
    const revoked = await rig.cli(['run', source], rig.env(KEY_A));
    expect(revoked.code, revoked.stderr).toBe(3);
    return { source, ref };
  }

  for (const named of [false, true]) {
    it(`the new key checked with a dry run, then \`resume${named ? ' --seller REF' : ''}\`: linked, and its runs go on as the same seller`, {
      timeout: 60_000,
    }, async () => {
      const { source, ref } = await revokedAfterRun();
      const dry = await rig.cli(['run', source, '--dry-run'], rig.env(NEW_KEY));
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`rows      ${ROWS}: 0 to create, 0 to update, ${ROWS} unchanged`);

      const resumed = await rig.cli(['resume', ...(named ? ['--seller', ref] : [])], rig.env(NEW_KEY));

      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`seller ${ref}: the key in SELLER_API_KEY now serves this seller\n`);
      const again = await rig.cli(['run', source], rig.env(NEW_KEY));
      expect(again.code, again.stderr).toBe(0);
      expect((await rig.status(runIdOf(again.stdout + again.stderr))).sellerRef).toBe(ref);
      expect(rig.sandbox.products(SELLER_A)).toHaveLength(ROWS);
    });
  }

  it("a real run with the new key, even one that created nothing, makes it that ref's: `resume` refuses to link it", {
    timeout: 60_000,
  }, async () => {
    const { source, ref } = await revokedAfterRun();
    const real = await rig.cli(['run', source], rig.env(NEW_KEY));
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain(`rows      ${ROWS}: 0 created, 0 updated, ${ROWS} unchanged`);
    const newRef = (await rig.status(runIdOf(real.stdout + real.stderr))).sellerRef;

    const resumed = await rig.cli(['resume', '--seller', ref], rig.env(NEW_KEY));

    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      `the key in SELLER_API_KEY is already seller ${newRef}'s key (1 run recorded): not linked to seller ${ref}`,
    );
  });

  it("a key's dry run, then its real run refused (401): nothing of the key was recorded, the line says mistyped, not revoked", {
    timeout: 60_000,
  }, async () => {
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    rig.sandbox.addKey(NEW_KEY, SELLER_A);
    const dry = await rig.cli(['run', source, '--dry-run'], rig.env(NEW_KEY));
    expect(dry.code, dry.stderr).toBe(0);
    rig.sandbox.revokeKey(NEW_KEY);

    const real = await rig.cli(['run', source], rig.env(NEW_KEY));

    expect(real.code).toBe(3);
    expect(real.stderr).toContain(
      'nothing was ever recorded under it (no earlier run, no product: mistyped?)',
    );
  });
});
