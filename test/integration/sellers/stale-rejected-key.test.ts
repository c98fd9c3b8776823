import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { eventually, type FailureRig, runDone, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';

const KEY_B = 'sk_bbb_right';
const WRONG_B = 'sk_bbb_WRONG';
const SELLER_B = 'seller-b';
const SELLER = ['--seller', 's12-b', '--key-env', 'SELLER_API_KEY_B'];

/** The rig's environment with seller B's key in SELLER_API_KEY_B and no other key variable. */
function envWithKeyB(rig: FailureRig, key: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...rig.env(), SELLER_API_KEY_B: key };
  delete env.SELLER_API_KEY;
  return env;
}

function rejections(rig: FailureRig): number {
  return rig.sandbox.stats().byStatus['401'] ?? 0;
}

describe('a key the API rejected, held where it was not fixed', () => {
  const rig = useFailureRig();

  it('a worker given the key in its environment: restarted with the fixed key, then `resume`, and that one restart ends the run', {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_B, SELLER_B);
    const rows = catalogRows(30);
    const first = rig.spawn(['worker'], envWithKeyB(rig, WRONG_B));
    const imported = await rig.cli(
      ['import', await rig.csv('b.csv', rows), ...SELLER],
      envWithKeyB(rig, WRONG_B),
    );
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    await eventually('seller B marked key rejected', async () =>
      (await rig.status(runId)).seller.authRejected ? true : undefined,
    );
    first.process.kill('SIGTERM');
    await first.exited;
    const rejected = rejections(rig);

    // The fixed key's worker starts before `resume` links that key to s12-b.
    const second = rig.spawn(['worker'], { ...envWithKeyB(rig, KEY_B), LOG_LEVEL: 'info' });
    await second.waitForStderr(/worker started/);
    const resumed = await rig.cli(['resume', ...SELLER], envWithKeyB(rig, KEY_B));
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = await runDone(rig, runId, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${second.stderr().trim()}`);
    });

    expect(done.counts).toMatchObject({ created: rows.length, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_B), rows);
    expect(rejections(rig), 'requests answered 401').toBe(rejected);
  });

  it('`run` with the rejected key after the seller was resumed with another: one ping, exit 3 in one line, nothing queued, the seller not paused again', {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_B, SELLER_B);
    const rows = catalogRows(10);
    const source = await rig.csv('b.csv', rows);
    const typo = await rig.cli(['run', source, ...SELLER], envWithKeyB(rig, WRONG_B));
    expect(typo.code, typo.stderr).toBe(3);
    const runId = runIdOf(typo.stderr);
    const resumed = await rig.cli(['resume', ...SELLER], envWithKeyB(rig, KEY_B));
    expect(resumed.code, resumed.stderr).toBe(0);
    const before = rig.sandbox.stats().total;

    const stale = await rig.cli(['run', source, ...SELLER], envWithKeyB(rig, WRONG_B));

    expect(stale.code).toBe(3);
    expect(stale.stderr).toBe(
      'catalog-sync: the key in SELLER_API_KEY_B was rejected (401) for seller s12-b ' +
        `(${(await rig.status(runId)).sellerRef}), and still is: nothing was queued or sent with it; ` +
        "put the seller's working key in SELLER_API_KEY_B\n",
    );
    expect(rig.sandbox.stats().total - before, 'the ping').toBe(1);
    expect((await rig.status(runId)).seller.authRejected).toBe(false);
    expect(stale.stderr + stale.stdout).not.toContain(WRONG_B);
    const queued = await rig.cli(['import', source, ...SELLER], envWithKeyB(rig, WRONG_B));
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain(
      'catalog-sync: queued, but the key in SELLER_API_KEY_B was rejected (401) for seller s12-b',
    );

    const fixed = await rig.cli(['run', source, ...SELLER], envWithKeyB(rig, KEY_B));
    expect(fixed.code, fixed.stderr).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_B), rows);
  });

  it('status says why a run of a seller paused by a rejected key waits, and the command that lifts it; not paused, with nothing put off, nothing', async () => {
    rig.sandbox.addKey(KEY_B, SELLER_B);
    const imported = await rig.cli(
      ['import', await rig.csv('b.csv', catalogRows(3)), ...SELLER],
      envWithKeyB(rig, KEY_B),
    );
    const runId = runIdOf(imported.stdout);
    const { sellerRef } = (await rig.status(runId)) as unknown as { sellerRef: string };
    // What a worker's 401 leaves (a fingerprint only), here written as a forged record would be.
    await withRedis((redis) =>
      redis.hset(new RedisKeys(rig.prefix).rejectedKeys(sellerRef), 'fp-of-a-key', 1),
    );

    const json = JSON.parse((await rig.cli(['status', runId, '--json'])).stdout) as { rejectedKeys: number };
    // Listed, but the seller not paused and no chunk put off by a worker holding it: the run does not
    // wait on it, and `resume` would change nothing.
    const listed = await rig.cli(['status', runId]);
    // ... and the seller paused by the 401 that listed it.
    await withRedis((redis) => redis.set(new RedisKeys(rig.prefix).authRejected(sellerRef), Date.now()));
    const shown = await rig.cli(['status', runId]);

    expect(listed.stdout).not.toContain('  keys');
    expect(shown.stdout).toContain(
      '  keys      1 key of this seller rejected by the API (401): a worker holding one sends nothing. ' +
        'Put the working key in $SELLER_API_KEY_B, then ' +
        `\`catalog-sync resume --seller s12-b --key-env SELLER_API_KEY_B --base-url ${rig.sandbox.baseUrl}\``,
    );
    expect(json.rejectedKeys).toBe(1);
  });
});
