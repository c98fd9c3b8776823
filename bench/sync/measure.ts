import type { Sandbox, SandboxStats } from '../../src/sandbox/index.js';
import { runCli } from './cli-run.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const PAGE_SIZE = 100;

/** One row of the table: what a run asked of the sandbox, against the ideal count. */
export interface Measure {
  label: string;
  rows: number;
  requests: number;
  idealRequests: number;
  writes: number;
  idealWrites: number;
  listPages: number;
  idealListPages: number;
  seconds: number;
}

export const pages = (products: number) => Math.max(1, Math.ceil(products / PAGE_SIZE));
const writesOf = (stats: SandboxStats) =>
  (stats.byRoute['POST /products'] ?? 0) + (stats.byRoute['PUT /products'] ?? 0);

/** One `catalog-sync run` of `path` (with `args`) into `sandbox`; throws unless it exits 0. */
export async function sync(
  sandbox: Sandbox,
  prefix: string,
  path: string,
  concurrency: number,
  args: string[] = [],
) {
  sandbox.resetStats();
  const result = await runCli(['run', path, '--concurrency', String(concurrency), ...args], {
    SELLER_API_BASE_URL: sandbox.baseUrl,
    SELLER_API_KEY: sandbox.defaultKey.key,
    REDIS_URL,
    CATALOG_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    PATH: process.env.PATH,
  });
  if (result.exitCode !== 0) {
    throw new Error(`run exited ${result.exitCode}:\n${result.stdout}${result.stderr}`);
  }
  return { stats: sandbox.stats(), seconds: result.ms / 1000, summary: result.stdout };
}

export function measure(
  label: string,
  rows: number,
  run: { stats: SandboxStats; seconds: number },
  ideal: { listPages: number; writes: number },
): Measure {
  return {
    label,
    rows,
    requests: run.stats.total,
    idealRequests: ideal.listPages + ideal.writes,
    writes: writesOf(run.stats),
    idealWrites: ideal.writes,
    listPages: run.stats.byRoute['GET /products'] ?? 0,
    idealListPages: ideal.listPages,
    seconds: run.seconds,
  };
}

/** The rows whose requests, writes or list pages differ from the ideal, one line each. */
export function missedIdeal(measures: Measure[]): string[] {
  return measures
    .filter(
      (m) => m.requests !== m.idealRequests || m.writes !== m.idealWrites || m.listPages !== m.idealListPages,
    )
    .map(
      (m) =>
        `${m.label}: ${m.requests} requests (ideal ${m.idealRequests}), ${m.writes} writes ` +
        `(ideal ${m.idealWrites}), ${m.listPages} list pages (ideal ${m.idealListPages})`,
    );
}

export function printTable(measures: Measure[]): void {
  const header = ['run', 'rows', 'requests', 'ideal', 'writes', 'ideal', 'list pages', 'seconds', 'rows/s'];
  const lines = measures.map((m) => [
    m.label,
    String(m.rows),
    String(m.requests),
    String(m.idealRequests),
    String(m.writes),
    String(m.idealWrites),
    String(m.listPages),
    m.seconds.toFixed(2),
    (m.rows / m.seconds).toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  for (const line of [header, ...lines]) {
    console.log(
      `| ${line.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`,
    );
  }
}
