import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach } from 'vitest';
import { registerDashboard } from '../../../src/cli/commands/dashboard.js';
import type { CliIo } from '../../../src/cli/program.js';

export interface RunningDashboard {
  /** `http://127.0.0.1:PORT/` as the command printed it. */
  url: string;
  stdout(): string;
  /** Sends the stop signal the command waits for; resolves once the command has ended. */
  stop(): Promise<void>;
}

/**
 * `catalog-sync dashboard --port 0` in this process, with `env` as its environment, stopped by a
 * stand-in for SIGINT (the command's `untilStopped` seam) instead of a real signal. Every dashboard
 * opened in a test is stopped after it.
 */
export function useDashboards(): (env: NodeJS.ProcessEnv, args?: string[]) => Promise<RunningDashboard> {
  const running = new Set<RunningDashboard>();
  afterEach(async () => {
    await Promise.all([...running].map((dashboard) => dashboard.stop()));
    running.clear();
  });
  return async (env, args = ['--port', '0']) => {
    let out = '';
    const stdout = new PassThrough();
    stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    const io: CliIo = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env, exitCode: 0 };
    let signal: (name: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => {
      signal = resolve;
    });
    const program = new Command('catalog-sync').exitOverride();
    registerDashboard(program, io, () => stopped);
    const ended = program.parseAsync(['node', 'catalog-sync', 'dashboard', ...args]);
    const url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = /^dashboard at (\S+)$/m.exec(out);
        if (match?.[1]) resolve(match[1]);
      };
      stdout.on('data', check);
      ended.then(() => reject(new Error(`dashboard ended before it listened: ${out}`)), reject);
    });
    const dashboard: RunningDashboard = {
      url,
      stdout: () => out,
      stop: async () => {
        running.delete(dashboard);
        signal('SIGINT');
        await ended;
      },
    };
    running.add(dashboard);
    return dashboard;
  };
}

/** A GET with a Host header of our choosing (fetch keeps the URL's). */
export function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
