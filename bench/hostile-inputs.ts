/**
 * Issue 10, "Bounded memory for any input": the CLI on an NDJSON file with one 200 MB line, on a
 * 1 MB gzip bomb that inflates to 1 GiB, and on an RSS feed with an item nested a million levels
 * deep, each under `/usr/bin/time -v` (its "Maximum resident set size" is the kernel's peak RSS of
 * the process, from wait4). The first two must end with exit 2 and one line, the third with that
 * item invalid (exit 1), all quickly and under 250 MB. The sandbox Seller API runs in the CLI process (`--sandbox`); Redis is the
 * local one, under a unique CATALOG_SYNC_PREFIX whose keys are deleted at the end.
 *
 *   npm run build && node dist/bench/hostile-inputs.js
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root.js';
import { writeDeepXml, writeGzipBomb, writeLongLineNdjson } from './hostile/inputs.js';
import { removeKeys } from './sync/redis-info.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Measured {
  input: string;
  code: number | null;
  seconds: number;
  peakRssMiB: number;
  stderr: string;
}

async function measure(input: string, path: string, prefix: string): Promise<Measured> {
  const bin = join(projectRoot(), 'bin', 'catalog-sync.js');
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, bin, 'run', path, '--sandbox'], {
    env: { ...process.env, REDIS_URL, CATALOG_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  const kib = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  // The one line of an error, or the summary's count of rows.
  const own = [
    ...stderr.split('\n').filter((line) => line.startsWith('catalog-sync:')),
    ...stdout
      .split('\n')
      .filter((line) => /^\s+rows\s/.test(line))
      .map((line) => line.trim()),
  ];
  const status = /Exit status: (\d+)/.exec(stderr)?.[1];
  return {
    input,
    code: status === undefined ? code : Number(status),
    seconds,
    peakRssMiB: kib / 1024,
    stderr: own.join('\n'),
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-sync-hostile-'));
  const prefix = `bench-hostile-${randomBytes(4).toString('hex')}`;
  try {
    const longLine = join(dir, 'long-line.ndjson');
    await writeLongLineNdjson(longLine, 200 * 1000 * 1000);
    const bomb = join(dir, 'bomb.ndjson.gz');
    await writeGzipBomb(bomb, 1024 * 1024 * 1024);
    const deep = join(dir, 'deep.xml');
    await writeDeepXml(deep, 1_000_000);
    console.log(
      `inputs: ${longLine} (${((await stat(longLine)).size / 1e6).toFixed(1)} MB), ` +
        `${bomb} (${((await stat(bomb)).size / 1e6).toFixed(2)} MB, inflating to 1 GiB), ` +
        `${deep} (${((await stat(deep)).size / 1e6).toFixed(1)} MB)\n`,
    );
    console.log('| input | exit | seconds | peak RSS (MiB) | what it said |');
    console.log('|---|---|---|---|---|');
    for (const [name, path] of [
      ['NDJSON, one 200 MB line', longLine],
      ['gzip bomb, 1 MB → 1 GiB', bomb],
      ['RSS item nested 1,000,000 deep', deep],
    ] as const) {
      const result = await measure(name, path, prefix);
      console.log(
        `| ${result.input} | ${result.code} | ${result.seconds.toFixed(2)} | ${result.peakRssMiB.toFixed(0)} | ${result.stderr.replaceAll(dir, '…')} |`,
      );
    }
  } finally {
    await removeKeys(REDIS_URL, prefix).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
