import { describe, expect, it } from 'vitest';
import { namedSellerRef } from '../../../src/queue/seller-names.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { type FailureRig, runDone, useFailureRig } from '../failures/support/rig.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';

const KEY_D = 'sk_d_first';
const KEY_D_NEW = 'sk_d_new';
const KEY_E = 'sk_e_right';
const TYPO_E = 'sk_e_TYPO';
const ACCOUNT_D = 'account-d';
const ACCOUNT_E = 'account-e';

/**
 * A name for the other seller whose ref sorts before `target`'s: `resume` once took the paused
 * sellers in ref order and linked the key to the first, so the test makes the wrong one come first.
 */
function nameSortedBefore(rig: FailureRig, target: string): string {
  const targetRef = namedSellerRef(rig.sandbox.baseUrl, target);
  for (let i = 0; ; i++) {
    const name = `shop-e${i}`;
    if (namedSellerRef(rig.sandbox.baseUrl, name) < targetRef) return name;
  }
}

/** `run SOURCE --seller NAME --key-env VAR` with `env`; resolves to its exit code and run id. */
async function runFor(
  rig: FailureRig,
  env: NodeJS.ProcessEnv,
  name: string,
  keyEnv: string,
  file: string,
  rows: CatalogRow[],
): Promise<{ code: number; runId: string }> {
  const source = await rig.csv(file, rows);
  const result = await rig.cli(['run', source, '--seller', name, '--key-env', keyEnv], env);
  return { code: result.code, runId: runIdOf(result.stdout + result.stderr) };
}

/** The keys of the two sellers, as a keys file would hold them, beside the rig's environment. */
function envWith(rig: FailureRig, keyD: string, keyE: string): NodeJS.ProcessEnv {
  return rig.env(undefined, { SELLER_API_KEY_D: keyD, SELLER_API_KEY_E: keyE });
}

describe('`resume` without --seller, several sellers paused', () => {
  const rig = useFailureRig();

  it('links a new key to the seller whose queued run reads its variable, never to another paused seller (whose catalog would go to this account)', {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_D, ACCOUNT_D);
    rig.sandbox.addKey(KEY_E, ACCOUNT_E);
    const other = nameSortedBefore(rig, 'shop-d');
    const rowsD = catalogRows(10);
    const first = await runFor(
      rig,
      envWith(rig, KEY_D, TYPO_E),
      'shop-d',
      'SELLER_API_KEY_D',
      'd.csv',
      rowsD,
    );
    expect(first.code).toBe(0);
    // The other seller's key mistyped: paused. Then shop-d's key revoked: paused too.
    const typo = await runFor(
      rig,
      envWith(rig, KEY_D, TYPO_E),
      other,
      'SELLER_API_KEY_E',
      'e.csv',
      catalogRows(5, 101),
    );
    expect(typo.code).toBe(3);
    rig.sandbox.revokeKey(KEY_D);
    const rowsD2 = catalogRows(12);
    const revoked = await runFor(
      rig,
      envWith(rig, KEY_D, TYPO_E),
      'shop-d',
      'SELLER_API_KEY_D',
      'd2.csv',
      rowsD2,
    );
    expect(revoked.code).toBe(3);

    rig.sandbox.addKey(KEY_D_NEW, ACCOUNT_D);
    const fixed = envWith(rig, KEY_D_NEW, TYPO_E);
    const resumed = await rig.cli(['resume', '--key-env', 'SELLER_API_KEY_D'], fixed);

    const refD = namedSellerRef(rig.sandbox.baseUrl, 'shop-d');
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(
      `seller shop-d (${refD}): the key in SELLER_API_KEY_D now serves this seller\n`,
    );
    expect(resumed.stdout).toContain(`seller shop-d (${refD}): resumed;`);
    expect(resumed.stdout).not.toContain(other);
    expect((await rig.status(typo.runId)).seller.authRejected).toBe(true);

    rig.spawn(['worker'], fixed);
    await runDone(rig, revoked.runId);
    expectExactCatalog(rig.sandbox.products(ACCOUNT_D), rowsD2);
    expect(rig.sandbox.products(ACCOUNT_E)).toEqual([]);
    expect((await rig.status(typo.runId)).state).not.toBe('done');
  });

  it('refuses in one line naming the sellers when the runs of several read the variable, and sends nothing', {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_D_NEW, ACCOUNT_D);
    for (const name of ['shop-x', 'shop-y']) {
      const paused = await runFor(
        rig,
        rig.env(`sk_typo_${name}`),
        name,
        'SELLER_API_KEY',
        `${name}.csv`,
        catalogRows(3),
      );
      expect(paused.code).toBe(3);
    }
    const before = rig.sandbox.stats().total;

    const resumed = await rig.cli(['resume'], rig.env(KEY_D_NEW));

    // Named in ref order, as the registry lists them.
    const [x, y] = ['shop-x', 'shop-y'].map((name) => ({
      name,
      ref: namedSellerRef(rig.sandbox.baseUrl, name),
    }));
    const named = [x, y]
      .sort((a, b) => (a!.ref < b!.ref ? -1 : 1))
      .map((s) => `seller ${s!.name} (${s!.ref})`);
    expect(resumed.code).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toBe(
      `catalog-sync: the key in SELLER_API_KEY could be any of ${named.join(', ')}: each is paused with a queued run that reads SELLER_API_KEY; ` +
        'nothing was linked or resumed: give the seller it is for with --seller NAME\n',
    );
    expect(rig.sandbox.stats().total).toBe(before);

    const chosen = await rig.cli(['resume', '--seller', 'shop-x'], rig.env(KEY_D_NEW));
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toContain(`seller shop-x (${x!.ref}): resumed`);
  });

  it("refuses a new key that no paused seller's queued run reads, rather than link it to the one seller paused", {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_D_NEW, ACCOUNT_D);
    const typo = await runFor(
      rig,
      envWith(rig, KEY_D, TYPO_E),
      'shop-e',
      'SELLER_API_KEY_E',
      'e.csv',
      catalogRows(3),
    );
    expect(typo.code).toBe(3);
    const before = rig.sandbox.stats().total;

    const resumed = await rig.cli(
      ['resume', '--key-env', 'SELLER_API_KEY_D'],
      envWith(rig, KEY_D_NEW, TYPO_E),
    );

    const e = `shop-e (${namedSellerRef(rig.sandbox.baseUrl, 'shop-e')})`;
    expect(resumed.code).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toBe(
      `catalog-sync: the key in SELLER_API_KEY_D serves no paused seller, and no paused seller has a queued run that reads SELLER_API_KEY_D ` +
        `(paused: seller ${e}): nothing was linked or resumed: give the seller it is for with --seller NAME\n`,
    );
    expect(rig.sandbox.stats().total).toBe(before);
    expect((await rig.status(typo.runId)).seller.authRejected).toBe(true);
  });
});
