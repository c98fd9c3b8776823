import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import type { CliIo } from '../../../src/cli/program.js';
import { projectRoot } from '../../../src/project-root.js';
import { assertOpen, trackCall } from './cli-calls.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Collects what a stream receives, as text. */
function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the CLI in this process, as `catalog-sync ...args` with `env` as its whole environment
 * (a copy: a command may write to it, e.g. `--sandbox`). Never touches process.env. The call is
 * tracked until it ends (cli-calls.ts): removing its prefix waits for it, and interrupts it as
 * SIGINT would (on an emitter of its own, never the test process's signals).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
  /** Seams of the process's io (a store source's sleep, a step before the report is written). */
  seams: Pick<Partial<CliIo>, 'storeSeams' | 'network' | 'answerCaps' | 'beforeReportWrite'> = {},
): Promise<CliResult> {
  return startCli(args, env, stdin, seams).result;
}

/** runCli, and the call's own SIGINT (as Ctrl-C sends it to a process): for a test that interrupts it. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
  seams: Pick<Partial<CliIo>, 'storeSeams' | 'network' | 'answerCaps' | 'beforeReportWrite'> = {},
): { result: Promise<CliResult>; interrupt: () => void } {
  const stdout = capture();
  const stderr = capture();
  const input = new PassThrough();
  input.end(stdin);
  const { signals, interrupt } = callSignals();
  const call = trackCall(args, env, interrupt, () =>
    main(['node', 'catalog-sync', ...args], {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin: input,
      env: { ...env },
      signals,
      ...seams,
    }),
  );
  const result = call.then(async (code) => {
    // Let the captures take in what was written just before the end.
    await new Promise((resolve) => setImmediate(resolve));
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  });
  return { result, interrupt };
}

/**
 * The SIGINT of one in-process call: emitted on its own emitter (CliIo.signals). A process that gets
 * SIGINT before it listens for it ends; a call cannot be ended so, so a command that starts
 * listening after the interrupt hears it then (a run still reading its first rows, say).
 */
function callSignals(): { signals: EventEmitter; interrupt: () => void } {
  const signals = new EventEmitter();
  let interrupted = false;
  let queued = false;
  const deliver = () => {
    if (queued) return;
    queued = true;
    // After the listener is added: 'newListener' comes before.
    setImmediate(() => {
      queued = false;
      signals.emit('SIGINT', 'SIGINT');
    });
  };
  signals.on('newListener', (event) => {
    if (interrupted && event === 'SIGINT') deliver();
  });
  return {
    signals,
    interrupt: () => {
      interrupted = true;
      deliver();
    },
  };
}

/**
 * Polls `status <run-id> --json` until the run is done; resolves to that status. The deadline only
 * keeps a broken run from hanging the test.
 */
export async function waitUntilDone(
  cli: (args: string[]) => Promise<CliResult>,
  runId: string,
  deadlineMs = 60_000,
): Promise<Record<string, unknown>> {
  const giveUp = Date.now() + deadlineMs;
  for (;;) {
    const status = JSON.parse((await cli(['status', runId, '--json'])).stdout) as Record<string, unknown>;
    if (status.state === 'done') return status;
    if (Date.now() > giveUp) throw new Error(`run ${runId} not done: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The run id in a summary (`run 20260101T000000-abcdef: done …`) or in `import`'s output; on a
 * cluster it ends in the seller's ref (`…-abcdef-0123456789abcdef`).
 */
export function runIdOf(output: string): string {
  const match = /\b(\d{8}T\d{6}-[0-9a-f]+(?:-[0-9a-f]{16})?)\b/.exec(output);
  if (!match?.[1]) throw new Error(`no run id in: ${output}`);
  return match[1];
}

export const BIN = join(projectRoot(), 'bin', 'catalog-sync.js');

/** Subprocess tests run the built CLI: say how to get it rather than fail obscurely. */
export function assertBuilt(): void {
  // dist/src (tsc) for the tests that load built modules, dist/bundle for the launcher.
  const built = ['dist/src/cli/main.js', 'dist/bundle/catalog-sync.js'];
  if (!built.every((path) => existsSync(join(projectRoot(), path)))) {
    throw new Error('dist/ is missing: run `npm run build` before the subprocess tests');
  }
}

export interface CliChild {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited, with its code (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process exits first. */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
}

/** The CLI as a user runs it, `node bin/catalog-sync.js ...args`; `stopAll` ends what is still running. */
export class CliProcesses {
  private readonly children = new Set<ChildProcess>();

  spawn(args: string[], env: NodeJS.ProcessEnv): CliChild {
    assertBuilt();
    // Not after its test: stopAll has run, and nothing would stop this child.
    assertOpen(args, env);
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: projectRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.add(child);
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      err += text;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        this.children.delete(child);
        resolve({ code, signal });
      });
    });
    const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const source = child[stream];
        const check = () => {
          const match = (stream === 'stdout' ? out : err).match(pattern);
          if (!match) return false;
          source?.off('data', check);
          resolve(match);
          return true;
        };
        if (check()) return;
        source?.on('data', check);
        exited.then(({ code }) => {
          if (!check()) reject(new Error(`exited (${code}) before printing ${pattern}: ${err.trim()}`));
        });
      });
    return {
      process: child,
      stdout: () => out,
      stderr: () => err,
      exited,
      waitForStdout: (pattern) => waitFor('stdout', pattern),
      waitForStderr: (pattern) => waitFor('stderr', pattern),
    };
  }

  /** Kills every child still running (SIGKILL: a test that failed must not leave a worker behind). */
  async stopAll(): Promise<void> {
    const running = [...this.children];
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    this.children.clear();
  }
}
