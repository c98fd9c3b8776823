import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../../src/sandbox/index.js';
import { type CatalogRow, writeCsv } from '../../support/catalog.js';
import { type CliChild, CliProcesses, type CliResult, runCli, runIdOf } from '../../support/cli.js';
import { closePrefix } from '../../support/cli-calls.js';
import { removePrefix, TEST_REDIS_URL } from '../../support/redis-prefix.js';

export const KEY_A = 'sk_fail_a';
export const SELLER_A = 'seller-a';

/** What `status --json` prints, as far as these tests read it. */
export interface RunStatus {
  id: string;
  state: 'queued' | 'running' | 'done';
  sellerRef: string;
  total: number;
  settled: number;
  produced: boolean;
  stateText: string;
  /** `runCounts` of the run: created, updated, unchanged, invalid, failed, missing, … */
  counts: Record<string, number>;
  seller: {
    pausedUntil: number | null;
    authRejected: boolean;
    requestsToday: number;
    requestsReserved?: number;
  };
}

export interface FailureRig {
  sandbox: Sandbox;
  /** `cs-fail-<random>`: this test's Redis keys, removed after it. */
  prefix: string;
  /** A temporary directory of the test's own, for sources and reports. */
  dir: string;
  /** The environment of a deployment against the sandbox with `key` (default KEY_A), plus `extra`. */
  env(key?: string, extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  csv(name: string, rows: CatalogRow[]): Promise<string>;
  /** `catalog-sync ...args` in this process. */
  cli(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** `node bin/catalog-sync.js ...args` as a child, killed after the test. */
  spawn(args: string[], env?: NodeJS.ProcessEnv): CliChild;
  /** `status [runId] --json`, parsed. */
  status(runId?: string, env?: NodeJS.ProcessEnv): Promise<RunStatus>;
}

/**
 * Per test: a sandbox Seller API over HTTP (options built afresh for each test, so a seeded PRNG
 * starts over), a Redis prefix of its own, a temporary directory and the CLI children it started;
 * all removed or killed after the test.
 */
export function useFailureRig(sandboxOptions: () => SandboxOptions = () => ({})): FailureRig {
  const rig = {} as FailureRig;
  let processes = new CliProcesses();
  beforeEach(async () => {
    const sandbox = await startSandbox({ keys: [{ key: KEY_A, seller: SELLER_A }], ...sandboxOptions() });
    const prefix = `cs-fail-${randomBytes(6).toString('hex')}`;
    const dir = await mkdtemp(join(tmpdir(), 'catalog-sync-failures-'));
    processes = new CliProcesses();
    const env = (key = KEY_A, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
      ...process.env,
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: key,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      // Backoff after a fault in milliseconds, not seconds: the fault tests retry often.
      CATALOG_SYNC_RETRY_BASE_MS: '20',
      ...extra,
    });
    const cli = (args: string[], runEnv = env()) => runCli(args, runEnv);
    Object.assign(rig, {
      sandbox,
      prefix,
      dir,
      env,
      csv: (name: string, rows: CatalogRow[]) => writeCsv(dir, name, rows),
      cli,
      spawn: (args: string[], runEnv = env()) => processes.spawn(args, runEnv),
      status: async (runId?: string, runEnv = env()) => {
        const result = await cli(['status', ...(runId ? [runId] : []), '--json'], runEnv);
        if (result.code !== 0) throw new Error(`status exited ${result.code}: ${result.stderr.trim()}`);
        return JSON.parse(result.stdout) as RunStatus;
      },
    } satisfies FailureRig);
  });
  afterEach(async () => {
    // As usePipeline: nothing of the test starts, what runs ends, then the prefix goes; the sandbox last.
    closePrefix(rig.prefix);
    await processes.stopAll();
    try {
      await removePrefix(rig.prefix);
    } finally {
      await rig.sandbox.close();
      await rm(rig.dir, { recursive: true, force: true });
    }
  });
  return rig;
}

/**
 * Polls `probe` until it returns a value other than undefined; throws naming `what` after
 * `timeoutMs`. Deadlines are generous: they say "it happened by itself", not how fast.
 */
export function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (value === undefined) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the run is done, polling `status --json`; resolves to its last status. */
export function runDone(rig: FailureRig, runId: string, timeoutMs = 45_000): Promise<RunStatus> {
  return eventually(
    `run ${runId} to be done`,
    async () => {
      const status = await rig.status(runId);
      return status.state === 'done' ? status : undefined;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/** kill -9 once the sandbox has applied `writes` writes in all: no cleanup, locks left behind. */
export async function killAfterWrites(rig: FailureRig, worker: CliChild, writes: number): Promise<void> {
  await eventually(
    `${writes} writes applied`,
    () => (rig.sandbox.stats().writesApplied >= writes ? true : undefined),
    { intervalMs: 5 },
  );
  worker.process.kill('SIGKILL');
  expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

/**
 * Imports `rows` with `env` (its job locks should be short), then spawns a worker killed after 60
 * writes, another killed after 160, and a third left to end the run. Resolves to the run's id.
 */
export async function importAndKillTwice(
  rig: FailureRig,
  rows: CatalogRow[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const imported = await rig.cli(['import', await rig.csv('catalog.csv', rows)], env);
  expect(imported.code).toBe(0);
  const runId = runIdOf(imported.stdout);
  const worker = ['worker', '--concurrency', '2'];
  await killAfterWrites(rig, rig.spawn(worker, env), 60);
  await killAfterWrites(rig, rig.spawn(worker, env), 160);
  rig.spawn(worker, env);
  return runId;
}
