import { describe, expect, it, vi } from 'vitest';
import { postWebhook } from '../../../src/notify/post-webhook.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// Belt and braces: whatever postWebhook does, no connection leaves loopback (http, https, net, tls) and no real DNS is asked.
vi.mock('node:http', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:https', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:dns', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedDnsLookup(original),
);
vi.mock('node:dns/promises', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedDns(original),
);
vi.mock('node:net', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedNet(original),
);
vi.mock('node:tls', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedTls(original),
);

/** A delivery whose waits are only recorded: no test here waits for a backoff. */
function recordedDelivery(overrides: { attempts?: number; timeoutMs?: number } = {}) {
  const waits: number[] = [];
  return {
    waits,
    delivery: {
      attempts: overrides.attempts ?? 3,
      backoffMs: 250,
      timeoutMs: overrides.timeoutMs ?? 5_000,
      sleep: async (ms: number) => {
        waits.push(ms);
      },
    },
  };
}

describe('postWebhook', () => {
  const hook = useWebhookReceiver();

  it('backs off twice as long before each new try after a 5xx, and stops at the first 2xx', async () => {
    hook.answers = [503, 502, 200];
    const { waits, delivery } = recordedDelivery({ attempts: 4 });

    const result = await postWebhook(hook.url, { event: 'ended' }, delivery);

    expect(result).toEqual({ ok: true, attempts: 3 });
    expect(waits).toEqual([250, 500]);
    expect(hook.posts).toHaveLength(3);
  });

  it('does not try again after a 4xx (the hook will not take it later either)', async () => {
    hook.answers = [404];
    const { delivery } = recordedDelivery();

    const result = await postWebhook(hook.url, {}, delivery);

    expect(result).toEqual({ ok: false, attempts: 1, reason: 'answered 404' });
  });

  it('gives up on a hook that never answers after its time-out, each try, without throwing', async () => {
    hook.answers = ['hang'];
    const { delivery } = recordedDelivery({ attempts: 2, timeoutMs: 200 });

    const result = await postWebhook(hook.url, {}, delivery);

    expect(result).toEqual({ ok: false, attempts: 2, reason: 'no answer within 200 ms' });
    expect(hook.posts).toHaveLength(2);
  });

  it('never connects to a link-local or unspecified address written in the URL', async () => {
    const { delivery } = recordedDelivery();
    for (const url of ['http://169.254.169.254/hook', 'http://0.0.0.0:9/hook', 'http://[fe80::1]/hook']) {
      const result = await postWebhook(url, {}, delivery);
      expect(result.ok).toBe(false);
      expect(result.attempts).toBe(1);
      expect(result.ok ? '' : result.reason).toMatch(
        /^refused: it leads to (a cloud metadata|the unspecified|a link-local) address/,
      );
    }
  });

  it("refuses a job file's hook on loopback unless this process allows private addresses; the operator's is told", async () => {
    const { delivery } = recordedDelivery();

    const refused = await postWebhook(hook.url, {}, { ...delivery, namedByJob: true });
    const operators = await postWebhook(hook.url, {}, delivery);
    const allowed = await postWebhook(
      hook.url,
      {},
      { ...delivery, namedByJob: true, allowPrivateAddresses: true },
    );

    expect(refused).toEqual({
      ok: false,
      attempts: 1,
      reason:
        'refused: it leads to a loopback address named by a job file; --allow-private-source (of the process that tells it) allows it',
    });
    expect(operators).toEqual({ ok: true, attempts: 1 });
    expect(allowed).toEqual({ ok: true, attempts: 1 });
    expect(hook.posts).toHaveLength(2);
  });

  it('a hook that cannot be reached is a reason, not an exception', async () => {
    const { delivery } = recordedDelivery({ attempts: 1 });
    const closed = new URL(hook.url);
    closed.port = '1';
    const result = await postWebhook(closed.toString(), {}, delivery);
    expect(result).toEqual({ ok: false, attempts: 1, reason: 'could not connect (ECONNREFUSED)' });
  });
});
