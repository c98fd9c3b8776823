import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogRows } from '../integration/support/catalog.js';
import { startCli, waitUntilDone } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';
import { withRedis } from '../integration/support/redis-prefix.js';
import { loopbackFetch } from './network-guard.js';
import { body, type LoopbackNetwork, loopbackNetwork, loopbackServer, redirect } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

const EVERY_SECOND = '* * * * * *';
const FEED = 'sku,name,price\nF-1,Mug,9.50\nF-2,Lamp,19.00\nF-3,Rug,49.90\n';
const REFUSED_FEED = /is a (loopback|private) address named by a job file; --allow-private-source allows it/;

/**
 * A scheduled import is a job file's choice as much as `run --job` is (docs/security.md): a worker
 * fetched a job's feed on loopback or a private network, and told its webhook there, with no flag.
 * It takes the worker's own --allow-private-source, judged on the address connected to.
 */
describe("a scheduled job's feed or webhook on loopback or a private network", () => {
  const pipeline = usePipeline();
  let feed: Awaited<ReturnType<typeof loopbackServer>>;
  let jobsDir = '';

  beforeEach(async () => {
    feed = await loopbackServer({
      '/feed.csv': body(FEED),
      // From a public address (as the test's resolver plays it) into loopback.
      '/moved.csv': (request, response) => redirect(`${feed.base}/feed.csv`)(request, response),
    });
    jobsDir = join(pipeline.dir, 'jobs');
    await mkdir(jobsDir);
  });
  afterEach(async () => {
    await feed.close();
  });

  const job = (name: string, text: string) =>
    writeFile(join(jobsDir, `${name}.yml`), `${text}schedule: "${EVERY_SECOND}"\n`, 'utf8');

  it('a loopback feed (a real one): one log line naming the job file, no request; with --allow-private-source, imported', async () => {
    await job('loop', `source: ${feed.base}/feed.csv\n`);
    expect((await pipeline.cli(['schedule', '--jobs', jobsDir])).code).toBe(0);

    const refused = pipeline.spawn(['worker', '--jobs', jobsDir], { LOG_LEVEL: 'info' });
    const [line] = await refused.waitForStderr(/^.*scheduled import loop failed: .*$/m);
    expect(line).toContain(
      `scheduled import loop failed: loop.yml: source: ${feed.base}/feed.csv: refused: 127.0.0.1 is a loopback address named by a job file; --allow-private-source allows it`,
    );
    expect(feed.requests).toHaveLength(0);
    expect(refused.stderr()).not.toMatch(/queued as run|sk_test_main|\n\s+at /);
    refused.process.kill('SIGTERM');
    expect(await refused.exited).toEqual({ code: 0, signal: null });
    expect(await failedReasons(pipeline.prefix)).toContainEqual(
      expect.objectContaining({ job: 'loop', reason: expect.stringMatching(REFUSED_FEED) }),
    );
    expect(pipeline.products()).toHaveLength(0);

    const allowed = pipeline.spawn(['worker', '--jobs', jobsDir, '--allow-private-source'], {
      LOG_LEVEL: 'info',
    });
    const [, runId] = await allowed.waitForStderr(/scheduled import loop queued as run (\S+?)"/);
    await waitUntilDone(pipeline.cli, runId as string, 20_000);
    expect(feed.requests.length).toBeGreaterThan(0);
    expect(pipeline.products()).toHaveLength(3);
    allowed.process.kill('SIGTERM');
    expect(await allowed.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  /**
   * The worker in this process, with the test's resolver and connector: a private address is a
   * made-up one that a loopback port plays, so no packet leaves loopback.
   */
  async function workerUntilFired(
    args: string[],
    network: LoopbackNetwork,
    settled: (outcomes: Outcomes) => boolean,
  ): Promise<{ stderr: string; outcomes: Outcomes }> {
    const call = startCli(['worker', '--jobs', jobsDir, ...args], { ...pipeline.env, ...HOSTS }, '', {
      network,
    });
    let outcomes: Outcomes = { failed: [], queued: [] };
    const giveUp = Date.now() + 20_000;
    while (!settled(outcomes) && Date.now() < giveUp) {
      await new Promise((wait) => setTimeout(wait, 200));
      outcomes = {
        failed: await failedReasons(pipeline.prefix),
        queued: await completedJobs(pipeline.prefix),
      };
    }
    call.interrupt();
    const result = await call.result;
    expect(result.code, result.stderr).toBe(0);
    return { stderr: result.stderr, outcomes };
  }

  const HOSTS = { LOG_LEVEL: 'info', CATALOG_SYNC_WEBHOOK_HOSTS: 'hooks.example.test' };

  it('a private feed, a redirect into loopback, and a loopback webhook: each a failed firing naming its job file, nothing fetched or told; the flag lifts it', async () => {
    const hook = await loopbackServer({ '/hook': body('ok') });
    try {
      const network = () =>
        loopbackNetwork(
          {
            'intranet.example.test': '10.0.0.5',
            'public.example.test': '198.51.100.7',
            'hooks.example.test': '127.0.0.1',
          },
          { '10.0.0.5': feed.port, '198.51.100.7': feed.port },
        );
      await job('private', `source: http://intranet.example.test:${feed.port}/feed.csv\n`);
      await job('moved', `source: http://public.example.test:${feed.port}/moved.csv\n`);
      await pipeline.csv('catalog.csv', catalogRows(2, 50));
      await job(
        'told',
        `source: catalog.csv\nnotify: http://hooks.example.test:${hook.port}/hook?token=t0p\n`,
      );
      expect((await pipeline.cli(['schedule', '--jobs', jobsDir])).code).toBe(0);

      const seams = network();
      const refused = await workerUntilFired([], seams, ({ failed }) =>
        ['private', 'moved', 'told'].every((name) => failed.some((entry) => entry.job === name)),
      );

      const lines = (name: string) =>
        refused.stderr.split('\n').filter((line) => line.includes(`scheduled import ${name} failed`));
      expect(lines('private')[0]).toContain(
        `private.yml: source: http://intranet.example.test:${feed.port}/feed.csv: refused: intranet.example.test (10.0.0.5) is a private address named by a job file; --allow-private-source allows it`,
      );
      expect(lines('moved')[0]).toContain(
        `moved.yml: source: http://public.example.test:${feed.port}/moved.csv: redirect refused to ${feed.base}/feed.csv: 127.0.0.1 is a loopback address named by a job file; --allow-private-source allows it`,
      );
      expect(lines('told')[0]).toContain(
        `told.yml: notify: http://hooks.example.test:${hook.port} leads to a loopback address named by a job file: refused; --allow-private-source allows it`,
      );
      expect(refused.stderr).not.toMatch(/t0p|sk_test_main|queued as run/);
      // The public host of `moved` alone was asked: its redirect was not followed.
      expect(seams.attempts.map((target) => target.address)).toEqual(
        seams.attempts.map(() => '198.51.100.7'),
      );
      expect(feed.requests.map((request) => request.url)).not.toContain('/feed.csv');
      expect(hook.requests).toHaveLength(0);
      expect(pipeline.products()).toHaveLength(0);

      const allowed = await workerUntilFired(['--allow-private-source'], network(), ({ queued }) =>
        ['private', 'moved', 'told'].every((name) => queued.includes(name)),
      );
      expect(allowed.outcomes.queued).toEqual(expect.arrayContaining(['private', 'moved', 'told']));
      expect(feed.requests.map((request) => request.url)).toEqual(
        expect.arrayContaining(['/feed.csv', '/moved.csv']),
      );
    } finally {
      await hook.close();
    }
  });

  it('a metadata address is refused, named by a job file as any other', async () => {
    const network = () =>
      loopbackNetwork({ 'meta.example.test': '169.254.169.254' }, { '169.254.169.254': feed.port });
    await job('meta', `source: http://meta.example.test:${feed.port}/feed.csv\n`);
    expect((await pipeline.cli(['schedule', '--jobs', jobsDir])).code).toBe(0);
    const seams = network();

    const run = await workerUntilFired([], seams, ({ failed }) =>
      failed.some((entry) => entry.job === 'meta'),
    );

    expect(run.stderr).toContain(
      `meta.yml: source: http://meta.example.test:${feed.port}/feed.csv: refused: meta.example.test (169.254.169.254) is a cloud metadata address`,
    );
    expect(seams.attempts).toEqual([]);
    expect(feed.requests).toHaveLength(0);
  });
});

interface Outcomes {
  failed: Array<{ job: string; reason: string }>;
  queued: string[];
}

/** The firings of the scheduled-imports queue that failed, as BullMQ counts them. */
function failedReasons(prefix: string): Promise<Array<{ job: string; reason: string }>> {
  return withQueue(prefix, async (queue) =>
    (await queue.getFailed()).map((entry) => ({
      job: String(entry.data?.job),
      reason: entry.failedReason,
    })),
  );
}

/** The jobs whose firing queued a run. */
function completedJobs(prefix: string): Promise<string[]> {
  return withQueue(prefix, async (queue) =>
    (await queue.getCompleted())
      .filter((entry) => (entry.returnvalue as { kind?: string } | null)?.kind === 'queued')
      .map((entry) => String(entry.data?.job)),
  );
}

function withQueue<T>(prefix: string, body: (queue: Queue) => Promise<T>): Promise<T> {
  return withRedis(async (connection) => {
    const queue = new Queue('scheduled-imports', { connection, prefix });
    try {
      return await body(queue);
    } finally {
      await queue.close();
    }
  });
}
