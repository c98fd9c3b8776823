import { describe, expect, it } from 'vitest';
import { KEY_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// `import --notify URL` leaves the telling to the workers, which tell a webhook read from Redis only
// on a host their CATALOG_SYNC_WEBHOOK_HOSTS lists: said at once, not found out in the worker's log.
// The webhook on loopback, the sandbox over HTTP, Redis real.

describe('import --notify on a host CATALOG_SYNC_WEBHOOK_HOSTS does not list', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('queues the run and says in one line that workers tell it only if their variable lists the host', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const host = new URL(hook.url).host;

    const imported = await rig.cli(['import', source, '--notify', hook.url]);

    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toMatch(/^\d{8}T\d{6}-[0-9a-f]+$/);
    const lines = imported.stderr.split('\n').filter((line) => line.includes('--notify'));
    expect(lines).toEqual([
      `catalog-sync: queued, but --notify ${new URL(hook.url).origin} is told only by workers whose ` +
        `CATALOG_SYNC_WEBHOOK_HOSTS lists ${host}; this environment's does not`,
    ]);
    // The hook's path (a Slack token) is never shown.
    expect(imported.stderr).not.toContain('secret-token');
  });

  it('says nothing when the variable lists the host', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const env = rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });

    const imported = await rig.cli(['import', source, '--notify', hook.url], env);

    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).not.toContain('--notify');
  });
});
