import { describe, expect, it } from 'vitest';
import { KEY_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// A run the list read refused (a field name no listed product shows: sync/listed-fields.ts) ends
// with nothing written. Its `ended` event and its log lines say `refused` and why, as `status`
// does, never `done` with every row failed. The webhook on loopback, the sandbox over HTTP, Redis real.

/** The JSON log lines of a process's stderr. */
function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('--notify: a run refused by the read of the seller products', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('`ended` says refused and the one-line reason; the log lines say so too', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(12));
    expect((await rig.cli(['run', source])).code).toBe(0);

    const env = rig.env(KEY_A, { LOG_LEVEL: 'info' });
    const result = await rig.cli(['run', source, '--missing', 'stock=0', '--notify', hook.url], env);

    const reason = '--missing: stock: no product has it; the stock field is quantity';
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`catalog-sync: ${reason}\n`);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
    const body = hook.posts[0]?.body ?? {};
    const runId = String(body.runId);
    const status = await rig.status(runId);
    expect(status.stateText).toBe(`refused: ${reason}`);
    expect(body).toMatchObject({ state: 'refused', refused: reason, counts: { created: 0, updated: 0 } });
    expect(body.text).toBe(
      `catalog-sync run ${runId} refused (${reason}): 0 created, 0 updated, 12 failed (seller ${body.sellerRef})`,
    );

    const lines = logLines(result.stderr).filter((line) => line.run === runId);
    // The worker's end line (finalise.ts), the one line per run with rows, before the summary.
    const end = lines.find((line) => line.msg !== 'run summary' && line.writes !== undefined);
    expect(end).toMatchObject({ state: 'refused', refused: reason, msg: `run ${runId} refused: ${reason}` });
    const summary = lines.find((line) => line.msg === 'run summary');
    expect(summary).toMatchObject({ state: 'refused', refused: reason, exitCode: 2 });
  });
});
