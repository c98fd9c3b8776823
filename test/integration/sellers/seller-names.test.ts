import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedSellerRef } from '../../../src/queue/seller-names.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import {
  type FailureRig,
  KEY_A,
  type RunStatus,
  runDone,
  SELLER_A,
  useFailureRig,
} from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';

const KEY_A2 = 'sk_fail_a_second';
const KEY_B = 'sk_fail_b';
const TYPO = 'sk_fail_a_typo';

/** The refs this test's Redis knows, with their names. */
/** What these tests read of `status --json` beyond the rig's RunStatus. */
type NamedStatus = RunStatus & { sellerName: string | null; requests: number };

async function registered(rig: FailureRig): Promise<Array<{ ref: string; name?: string }>> {
  return withRedis(async (redis) => {
    const sellers = await new SellerRegistry(redis, new RedisKeys(rig.prefix)).registered();
    return sellers.map(({ ref, name }) => ({ ref, ...(name ? { name } : {}) }));
  });
}

describe('sellers with names', () => {
  const rig = useFailureRig();

  it('two keys of one seller under --seller acme share one ref: one id map (nothing sent again) and one request counter', {
    timeout: 60_000,
  }, async () => {
    rig.sandbox.addKey(KEY_A2, SELLER_A);
    const rows = catalogRows(40);
    const source = await rig.csv('catalog.csv', rows);
    const acme = namedSellerRef(rig.sandbox.baseUrl, 'acme');

    const first = await rig.cli(['run', source, '--seller', 'acme', '--incremental'], rig.env(KEY_A));
    expect(first.code, first.stderr).toBe(0);
    const one = (await rig.status(runIdOf(first.stdout + first.stderr))) as NamedStatus;
    const before = rig.sandbox.stats();
    const second = await rig.cli(['run', source, '--seller', 'acme', '--incremental'], rig.env(KEY_A2));
    expect(second.code, second.stderr).toBe(0);
    const two = (await rig.status(runIdOf(second.stdout + second.stderr), rig.env(KEY_A2))) as NamedStatus;
    const after = rig.sandbox.stats();

    expect([one.sellerRef, two.sellerRef]).toEqual([acme, acme]);
    expect([one.sellerName, two.sellerName]).toEqual(['acme', 'acme']);
    expect(two.counts).toMatchObject({ unchanged: rows.length, created: 0, updated: 0 });
    // The id map and the last full read came with the name: no create, no read of the products.
    expect(after.byRoute['POST /products'] ?? 0).toBe(before.byRoute['POST /products'] ?? 0);
    expect(after.byRoute['GET /products'] ?? 0).toBe(before.byRoute['GET /products'] ?? 0);
    expect(two.seller.requestsToday).toBe(one.requests + two.requests);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(await registered(rig)).toEqual([{ ref: acme, name: 'acme' }]);
    const text = await rig.cli(['status', runIdOf(second.stdout + second.stderr)], rig.env(KEY_A2));
    expect(text.stdout).toContain(`today for seller acme (${acme})`);
  });

  it("a name given with another named seller's key is refused in one line, before any request", async () => {
    rig.sandbox.addKey(KEY_B, 'seller-b');
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const shopB = await rig.cli(['run', source, '--seller', 'shop-b'], rig.env(KEY_B));
    expect(shopB.code, shopB.stderr).toBe(0);
    const requests = rig.sandbox.stats().total;

    const result = await rig.cli(['run', source, '--seller', 'acme'], rig.env(KEY_B));

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "catalog-sync: seller acme: the key in SELLER_API_KEY is already seller shop-b's key (a key is one seller's account)\n",
    );
    expect(rig.sandbox.stats().total).toBe(requests);
    expect((await registered(rig)).map((seller) => seller.name)).toEqual(['shop-b']);
  });

  it('a name given with the key of an unnamed seller that has products recorded is refused: its id map would be left behind', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const unnamed = await rig.cli(['run', source]);
    expect(unnamed.code, unnamed.stderr).toBe(0);
    const ref = (await rig.status()).sellerRef;
    const requests = rig.sandbox.stats().total;

    const result = await rig.cli(['run', source, '--seller', 'acme']);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: seller acme: the key in SELLER_API_KEY is already seller ${ref}'s key (3 products recorded), and a key is one seller's account: run it without --seller\n`,
    );
    expect(rig.sandbox.stats().total).toBe(requests);
    expect(await registered(rig)).toEqual([{ ref }]);
  });

  it("a job file's seller: names the run's seller", async () => {
    await rig.csv('catalog.csv', catalogRows(3));
    await mkdir(join(rig.dir, 'jobs'));
    const job = join(rig.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: catalog.csv\nseller: acme\n');

    const result = await rig.cli(['run', '--job', job]);

    expect(result.code, result.stderr).toBe(0);
    const status = (await rig.status()) as NamedStatus;
    expect(status).toMatchObject({
      sellerName: 'acme',
      sellerRef: namedSellerRef(rig.sandbox.baseUrl, 'acme'),
    });
  });

  it('a name that breaks the rule is refused, saying the rule', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const result = await rig.cli(['run', source, '--seller', 'Acme']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--seller takes a seller name of lower-case letters, digits/);
  });

  it('a mistyped key under --seller acme pauses acme; `resume --seller acme` with the fixed key finishes the run, and acme has one ref', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(30);
    const source = await rig.csv('catalog.csv', rows);
    const acme = namedSellerRef(rig.sandbox.baseUrl, 'acme');

    const typo = await rig.cli(['run', source, '--seller', 'acme'], rig.env(TYPO));
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain(
      `then: \`catalog-sync resume --seller acme --key-env SELLER_API_KEY --base-url ${rig.sandbox.baseUrl}\` ` +
        `(or drop the run: catalog-sync cancel ${runIdOf(typo.stderr)})\n`,
    );
    expect(typo.stderr).not.toContain(TYPO);

    const resumed = await rig.cli(['resume', '--seller', 'acme'], rig.env(KEY_A));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`seller acme (${acme}): resumed`);
    // The next night's cron, with the fixed key: the queued run is the same import, served here.
    const next = await rig.cli(['run', source, '--seller', 'acme'], rig.env(KEY_A));
    expect(next.code, next.stderr).toBe(0);
    const done = await runDone(rig, runIdOf(typo.stderr));

    expect(done.sellerRef).toBe(acme);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(await registered(rig)).toEqual([{ ref: acme, name: 'acme' }]);
    // A worker holding only the fixed key, without --seller, finds acme through the key.
    const unnamed = await rig.cli(['run', await rig.csv('more.csv', catalogRows(31))], rig.env(KEY_A));
    expect(unnamed.code, unnamed.stderr).toBe(0);
    expect((await rig.status(runIdOf(unnamed.stdout + unnamed.stderr))).sellerRef).toBe(acme);
    expect(await registered(rig)).toEqual([{ ref: acme, name: 'acme' }]);
  });
});
