import { describe, expect, it } from 'vitest';
import { KEY_A, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { removePrefix, uniquePrefix } from '../support/redis-prefix.js';

const TYPO = 'sk_fail_a_typo';
const NEW_KEY = 'sk_fail_a_new';
const ROWS = 4;

/**
 * A seller onboarded whose products were already on the API: its first run matched them all (0
 * created), so its id map records no create, yet its runs, its day's request count and its
 * `--missing` state are under its key's ref. `resume` with that key after a mistyped one must not
 * move the key to the typo's seller: every later run would go there, its history left behind.
 */
describe('`resume` with a key whose seller has runs but no product created', () => {
  const rig = useFailureRig();

  /**
   * The products put on the API by another deployment (a Redis prefix of its own, removed), then
   * one run with KEY_A here that finds them all: resolves to the source and KEY_A's seller ref.
   */
  async function onboardMatched(): Promise<{ source: string; ref: string }> {
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const elsewhere = uniquePrefix();
    try {
      const seeded = await rig.cli(['run', source], rig.env(KEY_A, { CATALOG_SYNC_PREFIX: elsewhere }));
      expect(seeded.code, seeded.stderr).toBe(0);
    } finally {
      await removePrefix(elsewhere);
    }
    const first = await rig.cli(['run', source], rig.env(KEY_A));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`rows      ${ROWS}: 0 created, 0 updated, ${ROWS} unchanged`);
    return { source, ref: (await rig.status(runIdOf(first.stdout + first.stderr))).sellerRef };
  }

  /** The refusal `resume` gives: the key's own seller named, the typo's run to cancel. */
  function refusal(ref: string, typoSeller: string, typoRun: string): string {
    return (
      `catalog-sync: the key in SELLER_API_KEY is already seller ${ref}'s key (1 run recorded): ` +
      `not linked to seller ${typoSeller}, which stays paused; if its key was mistyped, drop its queued ` +
      `run (catalog-sync cancel ${typoRun}) and run the import again with this key\n`
    );
  }

  for (const named of [false, true]) {
    it(`${named ? '--seller TYPO-REF' : 'no --seller'}: nothing is linked, one line says to cancel the typo's run; the right key's runs stay under its one ref`, {
      timeout: 60_000,
    }, async () => {
      const { source, ref } = await onboardMatched();
      const typo = await rig.cli(['run', source], rig.env(TYPO));
      expect(typo.code, typo.stderr).toBe(3);
      const typoRun = runIdOf(typo.stderr);
      const typoSeller = (await rig.status(typoRun)).sellerRef;
      expect(typoSeller).not.toBe(ref);
      // What this run itself recorded (its listing, the fields it sends) is no history of the key.
      expect(typo.stderr).toContain('mistyped?)');
      expect(typo.stderr).toContain(
        `drop them with catalog-sync cancel ${typoRun}, then run again with the right key`,
      );

      const resumed = await rig.cli(['resume', ...(named ? ['--seller', typoSeller] : [])], rig.env(KEY_A));

      expect(resumed.stderr).toBe(refusal(ref, typoSeller, typoRun));
      expect(resumed.code).toBe(2);
      expect(resumed.stdout).toBe('');
      expect((await rig.status(typoRun)).seller.authRejected).toBe(true);
      // The way out the line names: the typo's run dropped, the import again with the right key.
      expect((await rig.cli(['cancel', typoRun], rig.env(KEY_A))).code).toBe(0);
      const again = await rig.cli(['run', source], rig.env(KEY_A));
      expect(again.code, again.stderr).toBe(0);
      expect((await rig.status(runIdOf(again.stdout + again.stderr))).sellerRef).toBe(ref);
      expect(rig.sandbox.products(SELLER_A)).toHaveLength(ROWS);
    });
  }

  it('a revoked key replaced by a new one (its ref has nothing) is still linked: the new key runs as the same seller', {
    timeout: 60_000,
  }, async () => {
    const { source, ref } = await onboardMatched();
    rig.sandbox.revokeKey(KEY_A);
    rig.sandbox.addKey(NEW_KEY, SELLER_A);
    const revoked = await rig.cli(['run', source], rig.env(KEY_A));
    expect(revoked.code, revoked.stderr).toBe(3);
    // Its runs make the key an account of its own (key-holder.ts): revoked, not mistyped. Told to
    // cancel and run again with the new key, the user would start a new seller, its history split.
    const revokedRun = runIdOf(revoked.stderr);
    expect(revoked.stderr).not.toContain('mistyped');
    expect(revoked.stderr).toContain(
      `(a revoked one: put the new key there), then: \`catalog-sync resume --seller ${ref} --key-env SELLER_API_KEY ` +
        `--base-url ${rig.sandbox.baseUrl}\` (or drop the run: catalog-sync cancel ${revokedRun})`,
    );

    const resumed = await rig.cli(['resume'], rig.env(NEW_KEY));

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`seller ${ref}: the key in SELLER_API_KEY now serves this seller\n`);
    const again = await rig.cli(['run', source], rig.env(NEW_KEY));
    expect(again.code, again.stderr).toBe(0);
    expect((await rig.status(runIdOf(again.stdout + again.stderr))).sellerRef).toBe(ref);
  });

  it('a dry run with the revoked key: its exit-3 line names the `resume` that links the new key, not a re-run', {
    timeout: 60_000,
  }, async () => {
    const { source, ref } = await onboardMatched();
    rig.sandbox.revokeKey(KEY_A);

    const dry = await rig.cli(['run', source, '--dry-run'], rig.env(KEY_A));

    expect(dry.code, dry.stderr).toBe(3);
    expect(dry.stderr).not.toContain('mistyped');
    expect(dry.stderr).toContain(
      `and link it to the seller once: \`catalog-sync resume --seller ${ref} --key-env SELLER_API_KEY --base-url ${rig.sandbox.baseUrl}\`)`,
    );
  });
});
