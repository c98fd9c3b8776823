import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';
import { eventually, KEY_A, SELLER_A, useFailureRig } from './support/rig.js';

const TYPO = 'sk_fail_a_typo';

/**
 * The Seller API moved away from a base URL that served the seller's runs: the sandbox on a
 * loopback port, then, on that very port, a server that answers 404 to every path (a base URL
 * whose API is gone). Every command that meets it says what `run` and `ping` say: no Seller API
 * at the base URL, never `cannot reach` (the URL does answer).
 */
describe('a base URL whose Seller API is gone, as each command says it', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();
  let api: Sandbox | null = null;
  let gone: Server | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
    await new Promise((resolve) => (gone ? gone.close(resolve) : resolve(undefined)));
    gone = null;
  });

  async function movingApi() {
    const port = await freePort();
    api = await startSandbox({ port, keys: [{ key: KEY_A, seller: SELLER_A }] });
    const baseUrl = `http://127.0.0.1:${port}/api/v1`;
    const env = (key = KEY_A) => rig.env(key, { SELLER_API_BASE_URL: baseUrl });
    const move = async () => {
      await api?.close();
      api = null;
      gone = createServer((_request, response) => {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"error":"not_found","message":"nothing here"}');
      });
      await new Promise<void>((resolve) => gone?.listen(port, '127.0.0.1', resolve));
    };
    return { baseUrl, env, move };
  }

  const lineOf = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('catalog-sync:'));

  /** What `ping` says of the base URL, from its `(check the base URL` on: the same in every line. */
  const noApi = (baseUrl: string, request: string) =>
    `no Seller API at ${baseUrl}: ${request}: 404 Not Found: nothing here (check the base URL: --base-url, SELLER_API_BASE_URL or the job's baseUrl)`;

  it('`approve` of a held run: exit 2, the words of `run`, the approved rows kept queued for a cancel', {
    timeout: 60_000,
  }, async () => {
    const { baseUrl, env, move } = await movingApi();
    const source = await rig.csv('a.csv', catalogRows(4));
    expect((await rig.cli(['run', source], env())).code).toBe(0);
    const changed = catalogRows(4).map((row) => ({ ...row, price: '99.00' }));
    const held = await rig.cli(['run', await rig.csv('b.csv', changed), '--max-updates', '1'], env());
    expect(held.code, held.stderr).toBe(5);
    const runId = runIdOf(held.stdout + held.stderr);
    await move();

    const approved = await rig.cli(['approve', runId], env());

    expect(lineOf(approved.stderr)).toEqual([
      `catalog-sync: ${noApi(baseUrl, 'GET /products')}. The approved rows of run ${runId} stay queued, none sent: ` +
        `drop them with catalog-sync cancel ${runId}, then run the import again with the right base URL.`,
    ]);
    expect(approved.code).toBe(2);
  });

  it('`revert` that meets the 404: exit 2, the words of `run`', {
    timeout: 60_000,
  }, async () => {
    const { baseUrl, env, move } = await movingApi();
    const source = await rig.csv('a.csv', catalogRows(4));
    expect((await rig.cli(['run', source], env())).code).toBe(0);
    const changed = catalogRows(4).map((row) => ({ ...row, price: '99.00' }));
    const second = await rig.cli(['run', await rig.csv('b.csv', changed)], env());
    expect(second.code, second.stderr).toBe(0);
    const runId = runIdOf(second.stdout + second.stderr);
    await move();

    const reverted = await rig.cli(['revert', runId], env());

    expect(reverted.stderr).toBe(
      `catalog-sync: ${noApi(baseUrl, 'GET /products')} before anything was put back\n`,
    );
    expect(reverted.code).toBe(2);
  });

  it("`resume` of a seller paused on a rejected key: ping's line, exit 2", { timeout: 60_000 }, async () => {
    const { baseUrl, env, move } = await movingApi();
    const typo = await rig.cli(['run', await rig.csv('a.csv', catalogRows(4))], env(TYPO));
    expect(typo.code, typo.stderr).toBe(3);
    const ref = (await rig.status(runIdOf(typo.stderr), env())).sellerRef;
    await move();

    const resumed = await rig.cli(['resume', '--seller', ref], env());

    expect(resumed.stderr).toBe(
      `catalog-sync: cannot check the key: ${noApi(baseUrl, 'GET /ping')}; nothing was linked or resumed for seller ${ref}\n`,
    );
    expect(resumed.code).toBe(2);
  });

  it("the webhook's `api-unreachable` text says it too, and the cancel that drops the rows", async () => {
    const { baseUrl, env, move } = await movingApi();
    await move();

    const run = await rig.cli(['run', await rig.csv('a.csv', catalogRows(4)), '--notify', hook.url], env());

    expect(run.code, run.stderr).toBe(2);
    const runId = runIdOf(run.stderr);
    await eventually('the webhook told', () => (hook.posts.length > 0 ? true : undefined));
    expect(hook.posts.map((post) => [post.body.event, post.body.text])).toEqual([
      [
        'api-unreachable',
        `catalog-sync run ${runId} paused: ${noApi(baseUrl, 'GET /products')}; its rows stay queued, none sent: ` +
          `drop them with catalog-sync cancel ${runId} (seller ${(await rig.status(runId, env())).sellerRef})`,
      ],
    ]);
  });
});
