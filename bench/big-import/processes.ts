import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root.js';

/** A `node bin/catalog-sync.js …` child: its pid for /proc, its output, and a graceful stop. */
export interface CliProcess {
  pid: number;
  output: () => string;
  /** Resolves to the exit code once the process has exited by itself or by `stop`. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** `nodeFlags` go to node before the script, e.g. `--require` of a preload. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, nodeFlags: string[] = []): CliProcess {
  const script = join(projectRoot(), 'bin/catalog-sync.js');
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  if (child.pid === undefined) throw new Error(`could not start catalog-sync ${args.join(' ')}`);
  return {
    pid: child.pid,
    output: () => text,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The sandbox Seller API as a process of its own: in this process it would hold every created
 * product, and the importer's RSS would grow with the catalog for a reason that is not ours.
 */
export async function startSandboxProcess(
  key: string,
  seller: string,
  /** More `catalog-sync sandbox` flags, e.g. `--latency 20`. */
  flags: string[] = [],
): Promise<CliProcess & { baseUrl: string }> {
  const sandbox = spawnCli(['sandbox', '--port', '0', '--key', `${key}=${seller}`, ...flags], {
    PATH: process.env.PATH,
    LOG_LEVEL: 'silent',
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const baseUrl = /^SELLER_API_BASE_URL=(\S+)$/m.exec(sandbox.output())?.[1];
    if (baseUrl) return { ...sandbox, baseUrl };
    if (Date.now() > deadline) {
      await sandbox.stop();
      throw new Error(`the sandbox did not print its URL:\n${sandbox.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resident set size (VmRSS) and its high-water mark (VmHWM) of a process, in bytes; null once it is gone. */
export async function processMemory(pid: number): Promise<{ rss: number; hwm: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
  } catch {
    return null;
  }
}
