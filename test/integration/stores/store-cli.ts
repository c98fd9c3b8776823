import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { type Pipeline, requestCounts } from '../support/pipeline.js';

/** The waits a store source asked for, in ms, in order: none is slept (the seam returns at once). */
export interface Waits {
  asked: number[];
}

/**
 * `catalog-sync run <store> --report …` in this process, with the store's credentials in `extraEnv`
 * and a sleep that only records: throttling, Retry-After and polling cost no time.
 */
export async function runStore(
  pipeline: Pipeline,
  source: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv,
  waits: Waits = { asked: [] },
  /** The longest answer the store's API may give (STORE_MAX_ANSWER_BYTES when absent). */
  maxAnswerBytes?: number,
) {
  pipeline.sandbox.resetStats();
  const name = `report-${waits.asked.length}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`;
  const result: CliResult = await runCli(
    ['run', source, '--report', join(pipeline.dir, name), ...args],
    { ...pipeline.env, ...extraEnv },
    '',
    {
      storeSeams: {
        sleep: async (ms) => {
          waits.asked.push(ms);
        },
        ...(maxAnswerBytes === undefined ? {} : { maxAnswerBytes }),
      },
    },
  );
  const stats = pipeline.sandbox.stats();
  // Written also by a run that ended early (exit 2): what it did before its source broke.
  let report: Array<Record<string, string>> = [];
  if (existsSync(join(pipeline.dir, name))) report = parseCsv(await pipeline.readText(name));
  return { result, stats, writes: requestCounts(stats), report };
}

/** A user-facing failure: one line on stderr, never a stack trace; resolves to that line. */
export function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at |triggerUncaughtException/m);
  return lines[0] ?? '';
}
