import { isLoopback } from '../seller-api/base-url.js';
import type { RunRecord } from './run-store.js';

/**
 * The connection options a command of a run (`approve`) takes from the run itself, as words of a
 * shell command: `--base-url URL`, `--allow-insecure` where that URL needs it, `--keys-file PATH`
 * where the run read keys from one. A held run is approved the next morning from a shell that
 * exported nothing of cron's line: with these it works as printed. Never a key: the run records
 * only the variable's name (which `approve` reads by default) and the file's path.
 */
export function connectionWords(run: Pick<RunRecord, 'baseUrl' | 'allowInsecure' | 'keysFile'>): string {
  const words = ['--base-url', shellWord(run.baseUrl)];
  if (run.allowInsecure && needsInsecure(run.baseUrl)) words.push('--allow-insecure');
  if (run.keysFile) words.push('--keys-file', shellWord(run.keysFile));
  return words.join(' ');
}

/**
 * A word as a POSIX shell reads it back: as is when it holds nothing the shell treats specially,
 * else in single quotes (a path with a space, or whatever a record read from Redis holds).
 */
export function shellWord(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `http://` to a host that is not loopback: refused without `--allow-insecure` (base-url.ts). */
function needsInsecure(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' && !isLoopback(url.hostname);
  } catch {
    return false;
  }
}
