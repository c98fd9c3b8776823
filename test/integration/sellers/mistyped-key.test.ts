import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { KEY_A, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { type CliResult, runIdOf } from '../support/cli.js';

// Etsy's export has no SKU column: only the id map of the key's seller knows what was created.
const ETSY = join(REAL_FIXTURES_DIR, 'etsy', 'EtsyListingsDownload.csv');
const ETSY_LISTINGS = 26;
const TYPO = 'sk_fail_a_typo';

describe('a mistyped key, fixed the way the tool says', () => {
  const rig = useFailureRig();

  /** `catalog-sync ...args` as a user runs it: a process of its own, read to its end. */
  async function cli(args: string[], key: string): Promise<CliResult> {
    const child = rig.spawn(args, rig.env(key));
    // 'close' comes once the process has exited and its output is read to the end.
    await new Promise((resolve) => child.process.once('close', resolve));
    return { code: child.process.exitCode ?? -1, stdout: child.stdout(), stderr: child.stderr() };
  }

  /** The Etsy export synced with the right key, then run with a typo in it: resolves to that run. */
  async function syncThenMistype(): Promise<{ typo: CliResult; runId: string }> {
    const first = await cli(['run', ETSY], KEY_A);
    expect(first.code, first.stderr).toBe(0);
    expect(rig.sandbox.products(SELLER_A)).toHaveLength(ETSY_LISTINGS);
    const typo = await cli(['run', ETSY], TYPO);
    expect(typo.code, typo.stderr).toBe(3);
    return { typo, runId: runIdOf(typo.stderr) };
  }

  it('the Etsy story: every command the exit-3 hint names, run with the right key, then the export again, leaves 26 products, not 52', {
    timeout: 60_000,
  }, async () => {
    const { typo } = await syncThenMistype();
    // `catalog-sync resume --seller REF` or `catalog-sync cancel RUN`, wherever the line has them.
    const hinted = [
      ...typo.stderr.matchAll(/catalog-sync ((?:resume|cancel) [^\s,;)]+(?: [^\s,;)]+)?)/g),
    ].map((match) => (match[1] as string).replace(/\.$/, '').split(' '));
    expect(hinted.length, `a command in: ${typo.stderr}`).toBeGreaterThan(0);

    for (const command of hinted) await cli(command, KEY_A);
    const again = await cli(['run', ETSY], KEY_A);

    expect(again.code, again.stderr).toBe(0);
    expect(rig.sandbox.products(SELLER_A)).toHaveLength(ETSY_LISTINGS);
  });

  it("`resume` of the typo's seller with the right key links nothing: one line names the run to cancel; cancelled, the next run creates nothing", {
    timeout: 60_000,
  }, async () => {
    const { runId } = await syncThenMistype();
    const typoSeller = (await rig.status(runId)).sellerRef;

    const resumed = await cli(['resume', '--seller', typoSeller], KEY_A);

    expect(resumed.code).toBe(2);
    expect(resumed.stdout).toBe('');
    expect(resumed.stderr).toMatch(
      new RegExp(
        `^catalog-sync: the key in SELLER_API_KEY is already seller [0-9a-f]{16}'s key \\(${ETSY_LISTINGS} products recorded\\): ` +
          `not linked to seller ${typoSeller}, which stays paused; .*\\(catalog-sync cancel ${runId}\\) and run the import again with this key\\n$`,
      ),
    );
    expect((await rig.status(runId)).seller.authRejected).toBe(true);

    expect((await cli(['cancel', runId], KEY_A)).code).toBe(0);
    const again = await cli(['run', ETSY], KEY_A);

    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `rows      ${ETSY_LISTINGS}: 0 created, 0 updated, ${ETSY_LISTINGS} unchanged`,
    );
    expect(rig.sandbox.products(SELLER_A)).toHaveLength(ETSY_LISTINGS);
  });

  it('a key that worked and was revoked: the hint names resume for the new key, and cancel', {
    timeout: 60_000,
  }, async () => {
    const first = await cli(['run', ETSY], KEY_A);
    expect(first.code, first.stderr).toBe(0);
    rig.sandbox.revokeKey(KEY_A);

    const revoked = await cli(['run', ETSY], KEY_A);

    expect(revoked.code).toBe(3);
    const runId = runIdOf(revoked.stderr);
    const seller = (await rig.status(runId)).sellerRef;
    expect(revoked.stderr).toContain(
      `then: \`catalog-sync resume --seller ${seller} --key-env SELLER_API_KEY --base-url ${rig.sandbox.baseUrl}\` ` +
        `(or drop the run: catalog-sync cancel ${runId})`,
    );
  });
});
