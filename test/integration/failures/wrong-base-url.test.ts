import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { KEY_A, useFailureRig } from './support/rig.js';

const ROWS = 20;

/**
 * A newcomer's base URL with a wrong path: the API's own endpoints answer 404 there. That is a
 * configuration error (exit 2, one line naming the cause), as `ping` says it, not 20 failed rows:
 * the run's rows stay queued, unsent, and no more requests go than it took to know.
 */
describe('a base URL under which the Seller API answers 404', () => {
  const rig = useFailureRig();

  const linesOf = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('catalog-sync:'));

  it('`run` exits 2 with one line naming the base URL and the 404; its rows stay queued, none failed', async () => {
    const baseUrl = rig.sandbox.baseUrl.replace(/\/api\/v1$/, '/x/api/v1');
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));

    const result = await rig.cli(['run', source], env);

    expect(result.code, result.stderr).toBe(2);
    const lines = linesOf(result.stderr);
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toContain(`no Seller API at ${baseUrl}`);
    expect(lines[0]).toContain('GET /products: 404 Not Found: no such endpoint; the API lives under /api/v1');
    const runId = runIdOf(result.stderr);
    expect(lines[0]).toContain(`catalog-sync cancel ${runId}`);
    const status = await rig.status(runId, env);
    expect(status.state).not.toBe('done');
    expect(status.settled).toBe(0);
    expect(status.counts.failed).toBe(0);

    // `ping` names the same cause, in the same words.
    const ping = await rig.cli(['ping'], env);
    expect(ping.code).toBe(2);
    expect(ping.stderr).toBe(
      `catalog-sync: no Seller API at ${baseUrl}: GET /ping: 404 Not Found: no such endpoint; the API lives under /api/v1 (check the base URL: --base-url, SELLER_API_BASE_URL or the job's baseUrl)\n`,
    );
  });

  it("costs one request of the seller's day to know, and one more for each later `run` of it", async () => {
    // Under the sandbox's own prefix: the key is checked and every request counts in the seller's day.
    const baseUrl = `${rig.sandbox.baseUrl}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));

    const first = await rig.cli(['run', source], env);

    expect(first.code, first.stderr).toBe(2);
    expect(linesOf(first.stderr), first.stderr).toHaveLength(1);
    expect(rig.sandbox.stats().total).toBe(1);
    const runId = runIdOf(first.stderr);

    // Run again as it was (cron's next night): the same one line, the same queued run, one request.
    const again = await rig.cli(['run', source], env);

    expect(again.code, again.stderr).toBe(2);
    const lines = linesOf(again.stderr);
    expect(lines, again.stderr).toHaveLength(1);
    expect(lines[0]).toContain(`no Seller API at ${baseUrl}`);
    expect(lines[0]).toContain(runId);
    expect(rig.sandbox.stats().total).toBe(2);
    const status = await rig.status(runId, env);
    expect(status.settled).toBe(0);
    expect(status.counts.failed).toBe(0);
    expect(rig.sandbox.stats().writesApplied).toBe(0);
  });

  it('`status` once the probe time is past and no process serves the seller: when it was last tried, and that no probe is scheduled', async () => {
    const baseUrl = rig.sandbox.baseUrl.replace(/\/api\/v1$/, '/x/api/v1');
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl, CATALOG_SYNC_PROBE_MS: '200' });
    const before = Date.now();
    const result = await rig.cli(['run', await rig.csv('catalog.csv', catalogRows(3))], env);
    expect(result.code, result.stderr).toBe(2);
    const runId = runIdOf(result.stderr);
    // The `run` that served the seller has exited, and took its served mark back as it did.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const status = await rig.cli(['status', runId], env);

    const [head] = status.stdout.split('\n');
    expect(head).toContain(`no Seller API at ${baseUrl}`);
    expect(head).not.toContain('probed');
    const tried =
      /rows queued, last tried at (\d\d):(\d\d):(\d\d) UTC; no probe scheduled: no running worker or run serves the seller \(a `catalog-sync worker` with its key, or the next `catalog-sync run` of its source, takes it up\)$/.exec(
        head ?? '',
      );
    expect(tried, head).not.toBeNull();
    // The time of the run's 404, within the seconds the run took (seconds of the UTC day: midnight may pass).
    const [, h, m, sec] = (tried as RegExpExecArray).map(Number) as [number, number, number, number];
    const since = (h * 3600 + m * 60 + sec - (Math.floor(before / 1000) % 86_400) + 86_400) % 86_400;
    expect(since).toBeLessThan(5);
    expect(status.stdout).toContain('waiting   no running worker holds seller');
  });
});
