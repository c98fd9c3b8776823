import { afterEach, describe, expect, it } from 'vitest';
import { type ResetHeader, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor } from './http-client.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const MIDNIGHT = Date.UTC(2024, 5, 2);
const ONE_MINUTE_BEFORE = MIDNIGHT - 60_000;

describe.each([
  ['retry-after', 'retry-after', '60'],
  ['ratelimit-reset', 'ratelimit-reset', '60'],
  ['x-ratelimit-reset', 'x-ratelimit-reset', String(MIDNIGHT / 1000)],
  ['x-ratelimit-reset-ms', 'x-ratelimit-reset', String(MIDNIGHT)],
] as const)('when the daily limit is reached, with reset header %s', (form: ResetHeader, header, value) => {
  it('serves N requests, answers 429 with the reset, then serves again once the day turns at 00:00 UTC', async () => {
    let clock = ONE_MINUTE_BEFORE;
    sandbox = await startSandbox({ dailyLimit: 3, resetHeader: form, now: () => clock });
    const call = clientFor(sandbox);
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const reply = await call('GET', '/ping');
      expect(reply.status).toBe(200);
      remaining.push(reply.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await call('GET', '/products');
    expect(refused.status).toBe(429);
    expect(refused.headers.get(header)).toBe(value);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.body).toMatchObject({ error: { code: 'daily_limit_reached' } });
    expect((await call('POST', '/products', { name: 'Lamp', price: 1 })).status).toBe(429);
    expect(sandbox.products(sandbox.defaultKey.seller)).toEqual([]);

    clock = MIDNIGHT;
    const served = await call('GET', '/ping');
    expect(served.status).toBe(200);
    expect(served.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('the daily limit', () => {
  it('answers a 429 with no reset header when told to, and carries none of the other forms', async () => {
    sandbox = await startSandbox({ dailyLimit: 0, resetHeader: 'none', now: () => ONE_MINUTE_BEFORE });
    const reply = await clientFor(sandbox)('GET', '/ping');
    expect(reply.status).toBe(429);
    for (const header of ['retry-after', 'ratelimit-reset', 'x-ratelimit-reset']) {
      expect(reply.headers.get(header)).toBeNull();
    }
  });

  it('is counted per key: one key at its limit does not stop another', async () => {
    sandbox = await startSandbox({
      dailyLimit: 1,
      keys: [
        { key: 'key-a', seller: 'a' },
        { key: 'key-b', seller: 'b' },
      ],
    });
    expect((await clientFor(sandbox, 'key-a')('GET', '/ping')).status).toBe(200);
    expect((await clientFor(sandbox, 'key-a')('GET', '/ping')).status).toBe(429);
    expect((await clientFor(sandbox, 'key-b')('GET', '/ping')).status).toBe(200);
  });

  it('follows a short day length, aligned to the epoch', async () => {
    let clock = 30_000 * 1000 + 29_500;
    sandbox = await startSandbox({ dailyLimit: 1, dayLengthMs: 30_000, now: () => clock });
    const call = clientFor(sandbox);
    expect((await call('GET', '/ping')).status).toBe(200);
    const refused = await call('GET', '/ping');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    clock += 500;
    expect((await call('GET', '/ping')).status).toBe(200);
  });

  it('does not count 401s against a key, and sends no limit headers when there is no limit', async () => {
    sandbox = await startSandbox();
    const reply = await clientFor(sandbox)('GET', '/ping');
    expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
    sandbox.setFaults({ dailyLimit: 1 });
    expect((await clientFor(sandbox, 'wrong')('GET', '/ping')).status).toBe(401);
    expect((await clientFor(sandbox)('GET', '/ping')).status).toBe(200);
    expect(sandbox.stats().rateLimited).toBe(0);
  });
});
