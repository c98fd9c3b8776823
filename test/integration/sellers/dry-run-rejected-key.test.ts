import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { KEY_A, runDone, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';

const TYPO = 'sk_fail_a_typo';
const NEW_KEY = 'sk_fail_a_new';
const ACME = ['--seller', 'acme'];

/**
 * `run --dry-run` plans in a queue of its own and writes nothing: a 401 to its key ends it (exit 3)
 * and lists that key as rejected, but pauses no seller that another key serves, and leaves no seller
 * marked `key rejected` with nothing of it to cancel.
 */
describe('a dry run whose key the API rejects', () => {
  const rig = useFailureRig();

  it("a mistyped key under --seller acme: exit 3 in one line; acme is not paused, and a worker with acme's key serves its next import", {
    timeout: 60_000,
  }, async () => {
    const first = await rig.cli(['run', await rig.csv('k.csv', catalogRows(2)), ...ACME], rig.env(KEY_A));
    expect(first.code, first.stderr).toBe(0);

    const dry = await rig.cli(
      ['run', await rig.csv('k.csv', catalogRows(2)), '--dry-run', ...ACME],
      rig.env(TYPO),
    );

    expect(dry.code).toBe(3);
    expect(dry.stderr).toBe(
      `catalog-sync: the API key was rejected (401). Dry run ${runIdOf(dry.stderr)} is ended (nothing was written); ` +
        'fix the key in SELLER_API_KEY (a revoked one: put the new key there), and run it again\n',
    );
    const rows = catalogRows(2).map((row, i) => (i === 0 ? { ...row, price: '99.50' } : row));
    const imported = await rig.cli(['import', await rig.csv('k2.csv', rows), ...ACME], rig.env(KEY_A));
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    expect((await rig.status(runId)).seller.authRejected).toBe(false);

    rig.spawn(['worker'], rig.env(KEY_A));
    const done = await runDone(rig, runId, 20_000);

    expect(done.counts).toMatchObject({ updated: 1, unchanged: 1, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    // The key stays rejected: run again with it, one ping and the same exit 3, nothing queued.
    const again = await rig.cli(
      ['run', await rig.csv('k.csv', catalogRows(2)), '--dry-run', ...ACME],
      rig.env(TYPO),
    );
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('was rejected (401) for seller acme');
    expect((await rig.status(runId)).seller.authRejected).toBe(false);
  });

  it('a mistyped key and no --seller: exit 3 says to run again with the right key, and its seller is not left marked key rejected', async () => {
    const dry = await rig.cli(['run', await rig.csv('k.csv', catalogRows(2)), '--dry-run'], rig.env(TYPO));

    expect(dry.code).toBe(3);
    const runId = runIdOf(dry.stderr);
    expect(dry.stderr).toBe(
      'catalog-sync: the API key was rejected (401), and nothing was ever recorded under it (no earlier run, no product: mistyped?). ' +
        `Dry run ${runId} is ended (nothing was written); run it again with the right key\n`,
    );
    const status = await rig.status(runId);
    expect(status.state).toBe('cancelled');
    expect(status.seller.authRejected).toBe(false);
  });

  it('a revoked key of a seller known by its key: the `resume` the line names links the new key, and the run with it creates nothing again', {
    timeout: 60_000,
  }, async () => {
    const source = await rig.csv('k.csv', catalogRows(3));
    const first = await rig.cli(['run', source], rig.env(KEY_A));
    expect(first.code, first.stderr).toBe(0);
    rig.sandbox.revokeKey(KEY_A);
    rig.sandbox.addKey(NEW_KEY, SELLER_A);

    const dry = await rig.cli(['run', source, '--dry-run'], rig.env(KEY_A));

    expect(dry.code).toBe(3);
    const seller = (await rig.status(runIdOf(dry.stderr))).sellerRef;
    expect(dry.stderr).toContain(
      '(a revoked one: put the new key there, and link it to the seller once: ' +
        `\`catalog-sync resume --seller ${seller} --key-env SELLER_API_KEY --base-url ${rig.sandbox.baseUrl}\`)`,
    );
    const resumed = await rig.cli(['resume', '--seller', seller], rig.env(NEW_KEY));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`seller ${seller}: the key in SELLER_API_KEY now serves this seller`);
    const again = await rig.cli(['run', source], rig.env(NEW_KEY));

    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('rows      3: 0 created, 0 updated, 3 unchanged');
    expect(rig.sandbox.products(SELLER_A)).toHaveLength(3);
  });

  it("a plain run's mistyped key still pauses acme; the next run with acme's own key resumes it without calling that key accepted again", {
    timeout: 60_000,
  }, async () => {
    const source = await rig.csv('k.csv', catalogRows(2));
    expect((await rig.cli(['run', source, ...ACME], rig.env(KEY_A))).code).toBe(0);
    const typo = await rig.cli(['run', source, ...ACME], rig.env(TYPO));
    expect(typo.code).toBe(3);
    const ref = (await rig.status(runIdOf(typo.stderr))).sellerRef;

    const fixed = await rig.cli(['run', source, ...ACME], rig.env(KEY_A));

    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain(
      `catalog-sync: the key in SELLER_API_KEY is accepted: seller acme (${ref}) resumed ` +
        '(it was paused for another key, still listed as rejected)\n',
    );
  });
});
