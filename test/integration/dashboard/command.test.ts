import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { usePipeline } from '../support/pipeline.js';
import { useDashboards } from './support.js';

// `--host 0.0.0.0` must be refused before anything listens: were it not, the guard refuses to bind
// (node:http's servers and node:net's alike) and to connect anywhere but loopback.
vi.mock('node:http', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:net', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedNet(original),
);

describe('`catalog-sync dashboard`', () => {
  const pipeline = usePipeline();
  const openDashboard = useDashboards();

  it('prints where it serves, and stops serving on SIGINT', async () => {
    const dashboard = await openDashboard(pipeline.env);
    expect(dashboard.stdout()).toMatch(/^dashboard at http:\/\/127\.0\.0\.1:\d+\/\n$/);
    expect((await fetch(`${dashboard.url}api/runs`)).status).toBe(200);

    await dashboard.stop();

    await expect(fetch(`${dashboard.url}api/runs`)).rejects.toThrow();
  });

  it('says in one line, naming --port, that the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await pipeline.cli(['dashboard', '--port', String(port)]);

      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        `catalog-sync: --port: ${port} is already in use; try --port 0`,
      ]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it.each([
    [['--port', '70000'], /^catalog-sync: --port: 70000 is not an integer from 0 to 65535$/],
    [['--host', '0.0.0.0'], /^catalog-sync: --host: 0\.0\.0\.0 is not loopback/],
  ])('refuses %j in one line, exit 2', async (args, message) => {
    const result = await pipeline.cli(['dashboard', ...args]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('says in one line that Redis is unreachable, exit 2', async () => {
    const result = await pipeline.cli(['dashboard', '--port', '0'], { REDIS_URL: 'redis://127.0.0.1:1' });

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/Redis is not reachable/)]);
  });
});
