import { Readable, Writable } from 'node:stream';
import type * as Launched from '../../src/cli/entry.js';

/**
 * The CLI as the launcher runs it: the bundle `npm run build` writes to dist/bundle (src/cli/entry.ts),
 * heap growth first, as bin/catalog-sync.js loads them. Not dist/src's modules, which the launcher
 * no longer loads: a bench of those would measure a start no user has.
 */
const bundled = (file: string) => new URL(`../../bundle/${file}`, import.meta.url).href;
await import(bundled('heap-growth.js'));
export const { main, registrations }: typeof Launched = await import(bundled('catalog-sync.js'));

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs the CLI in this process (as `catalog-sync …args`), with its own output and environment. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const argv = ['node', 'catalog-sync', ...args];
  // Not timed: the command's modules, loaded at the start of a CLI process (main.ts loads them lazily).
  await registrations(argv);
  const started = performance.now();
  const exitCode = await main(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([]),
    env: { ...env },
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text(), ms: performance.now() - started };
}
