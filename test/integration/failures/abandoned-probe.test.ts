import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { KEY_A, useFailureRig } from './support/rig.js';

/**
 * A prober's finding: right after a `run` exited 6 (the API out of reach), `status --list` said
 * `rows queued, probed again at 19:24:44 UTC`, when no process was left to probe: the exited run's
 * served mark outlived it by up to 30 s. A process that ends takes its own mark back.
 */
describe('a run that exited 6, with no process left to probe', () => {
  const rig = useFailureRig();

  it('`status --list` and `status` say no probe is scheduled and who takes it up, not a probe time', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl });
    const result = await rig.cli(['run', await rig.csv('catalog.csv', catalogRows(3))], env);
    expect(result.code, result.stderr).toBe(6);
    const runId = runIdOf(result.stderr);

    const list = await rig.cli(['status', '--list'], env);

    expect(list.code, list.stderr).toBe(0);
    const line = list.stdout.split('\n').find((one) => one.startsWith(runId)) ?? '';
    expect(line).toContain(`cannot reach ${baseUrl}`);
    expect(line).not.toContain('probed again');
    expect(line).toMatch(
      /rows queued, last tried at \d\d:\d\d:\d\d UTC; no probe scheduled: no running worker or run serves the seller \(a `catalog-sync worker` with its key, or the next `catalog-sync run` of its source, takes it up\)/,
    );
    const status = await rig.cli(['status', runId], env);
    expect(status.stdout.split('\n')[0]).not.toContain('probed again');
    expect(status.stdout).toContain('waiting   no running worker holds seller');
  });
});
