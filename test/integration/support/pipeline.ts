import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  type Sandbox,
  type SandboxOptions,
  type SandboxStats,
  startSandbox,
} from '../../../src/sandbox/index.js';
import { type CatalogRow, parseCsv, writeCsv } from './catalog.js';
import { type CliChild, CliProcesses, type CliResult, runCli } from './cli.js';
import { closePrefix } from './cli-calls.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from './redis-prefix.js';

export const MAIN_KEY = 'sk_test_main';
export const MAIN_SELLER = 'seller-main';

/** The environment of a run against `sandbox` with `key`: what a deployment would export. */
export function pipelineEnv(sandbox: Sandbox, key: string, prefix: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SELLER_API_BASE_URL: sandbox.baseUrl,
    SELLER_API_KEY: key,
    REDIS_URL: TEST_REDIS_URL,
    CATALOG_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    // No test here injects faults; a retry, if one happens, should not slow the suite.
    CATALOG_SYNC_RETRY_BASE_MS: '10',
  };
}

export interface Pipeline {
  sandbox: Sandbox;
  /** The environment of the main seller (key MAIN_KEY → seller MAIN_SELLER). */
  env: NodeJS.ProcessEnv;
  prefix: string;
  /** A temporary directory of the test's own, for sources and reports. */
  dir: string;
  /** Writes a CSV into `dir`; resolves to its path. */
  csv(name: string, rows: CatalogRow[], columns?: string[]): Promise<string>;
  /** `catalog-sync ...args` in this process, with `env` (plus `extraEnv`). */
  cli(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** `node bin/catalog-sync.js ...args` with `env` (plus `extraEnv`); killed after the test if still running. */
  spawn(args: string[], extraEnv?: NodeJS.ProcessEnv): CliChild;
  /** The main seller's products as the sandbox stores them, hidden fields included. */
  products(seller?: string): Array<Record<string, unknown>>;
  readText(name: string): Promise<string>;
}

/**
 * Per test: a sandbox Seller API over HTTP, a Redis prefix and a temporary directory, all removed
 * after the test, once every CLI subprocess it spawned has been stopped and every in-process CLI
 * call under its prefix has ended (removePrefix); a call of the test started after that is refused.
 * Returns an object whose fields are set before each test.
 */
export function usePipeline(sandboxOptions: SandboxOptions = {}): Pipeline {
  const pipeline = {} as Pipeline;
  const processes = new CliProcesses();
  beforeEach(async () => {
    const sandbox = await startSandbox({ keys: [{ key: MAIN_KEY, seller: MAIN_SELLER }], ...sandboxOptions });
    const prefix = uniquePrefix();
    const dir = await mkdtemp(join(tmpdir(), 'catalog-sync-pipeline-'));
    const env = pipelineEnv(sandbox, MAIN_KEY, prefix);
    Object.assign(pipeline, {
      sandbox,
      env,
      prefix,
      dir,
      csv: (name: string, rows: CatalogRow[], columns?: string[]) => writeCsv(dir, name, rows, columns),
      cli: (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runCli(args, { ...env, ...extraEnv }),
      spawn: (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
        processes.spawn(args, { ...env, ...extraEnv }),
      products: (seller = MAIN_SELLER) => sandbox.products(seller),
      readText: (name: string) => readFile(join(dir, name), 'utf8'),
    } satisfies Pipeline);
  });
  afterEach(async () => {
    // Nothing of the test starts any more, and what runs ends, before the prefix goes: a worker
    // or an in-process call still running would write under it after. The sandbox closes last: a
    // call that met it closed would write that its seller cannot be reached.
    closePrefix(pipeline.prefix);
    await processes.stopAll();
    try {
      await removePrefix(pipeline.prefix);
    } finally {
      await pipeline.sandbox.close();
      await rm(pipeline.dir, { recursive: true, force: true });
    }
  });
  return pipeline;
}

/**
 * `catalog-sync run <rows as feed.csv> --report report.csv …args`, the sandbox's stats zeroed first:
 * the result, the report's lines (none when the run wrote no report) and the requests by kind.
 */
export async function runReported(pipeline: Pipeline, rows: CatalogRow[], args: string[] = []) {
  pipeline.sandbox.resetStats();
  const source = await pipeline.csv('feed.csv', rows);
  const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv'), ...args]);
  const report = await pipeline.readText('report.csv').catch(() => '');
  return { result, lines: parseCsv(report), writes: requestCounts(pipeline.sandbox.stats()) };
}

/** Requests by kind, from the sandbox's stats. */
export function requestCounts(stats: SandboxStats) {
  return {
    lists: stats.byRoute['GET /products'] ?? 0,
    creates: stats.byRoute['POST /products'] ?? 0,
    updates: stats.byRoute['PUT /products'] ?? 0,
    total: stats.total,
  };
}

/** The products by sku, with only the fields a source row carries (no id, no timestamps). */
export function bySku(products: Array<Record<string, unknown>>): Map<string, Record<string, unknown>> {
  const map = new Map<string, Record<string, unknown>>();
  for (const { id: _id, created_at: _c, updated_at: _u, ...fields } of products) {
    map.set(String(fields.sku), fields);
  }
  return map;
}
