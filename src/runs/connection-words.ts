import { plainHttpHost } from '../seller-api/base-url.js';
import { type AllowedHost, isHostAllowed } from '../trust-rules.js';
import type { RunRecord } from './run-store.js';

/**
 * A process's own connection to the Seller API, as its command line and environment gave it: the
 * operator's own words (docs/security.md, "Trusted"), never a record read back from Redis.
 */
export interface OwnConnection {
  baseUrl: string;
  allowInsecure: boolean;
  /** The `--keys-file` it read keys from, as an absolute path. */
  keysFile?: string;
}

/**
 * Where the connection words of a run's printed `approve` or `resume` line come from. `own`: the process that made the
 * run prints its own options, which its operator gave. `allowedHosts`: the run was read from Redis
 * (`status`, `approve`, `cancel`), where whoever can write Redis could have written it; its values
 * are printed as a command only where this process's environment (or command line) already allows
 * its base URL's host.
 */
export type HintConnection = { own: OwnConnection } | { allowedHosts: readonly AllowedHost[] };

/** The connection words of a printed line; `fillIn`: placeholders the operator fills in, not a command as is. */
export interface HintWords {
  words: string;
  fillIn: boolean;
}

/**
 * The connection options of a run's printed `approve` (or `resume`) line, as words of a shell command. A held run is
 * approved the next morning from a shell that exported nothing of cron's line: with these it works
 * as printed. Never a key: the run records only the variable's name (which `approve` reads by
 * default) and the file's path.
 */
export function hintConnectionWords(
  run: Pick<RunRecord, 'baseUrl' | 'keysFile'>,
  connection: HintConnection,
): HintWords {
  if ('own' in connection) return { words: connectionWords(connection.own), fillIn: false };
  // A record is no new trust only where its host is allowed here: pasted, a forged one would send
  // the key (of a keys file it names) to a host of the forger's choice. `--allow-insecure` is never
  // vouched for by a record, so a URL that needs it is said in words too.
  if (isHostAllowed(run.baseUrl, connection.allowedHosts) && !needsInsecure(run.baseUrl)) {
    const own = { baseUrl: run.baseUrl, allowInsecure: false, ...optionalKeysFile(run) };
    return { words: connectionWords(own), fillIn: false };
  }
  return { words: `--base-url <API URL>${run.keysFile ? ' --keys-file <keys file>' : ''}`, fillIn: true };
}

/**
 * A `resume` command for a seller paused by a rejected key (401), as one word of a line: it carries
 * the connection words of `approve` (above, with the same trust rule), for the same reason: it is run
 * later, from a shell that has none of cron's variables, where `resume` refuses a base URL read from
 * Redis without `--base-url` and finds no key without `--keys-file`. `keysFile: null`: the key is in
 * a file the record does not name (a worker's), said as FILE.
 */
export function resumeCommand(
  run: Pick<RunRecord, 'sellerRef' | 'sellerName' | 'baseUrl' | 'keysFile'>,
  keyEnv: string,
  connection: HintConnection,
  keysFile: 'run' | 'FILE' = 'run',
): string {
  const target = keysFile === 'run' ? run : { baseUrl: run.baseUrl };
  const { words, fillIn } = hintConnectionWords(target, connection);
  const file = keysFile === 'FILE' ? ' --keys-file FILE' : '';
  const seller = shellWord(run.sellerName ?? run.sellerRef);
  const command = `\`catalog-sync resume --seller ${seller} --key-env ${keyEnv} ${words}${file}\``;
  return fillIn ? `${command} (with the values of the command that made the run)` : command;
}

/** `--base-url URL`, `--allow-insecure` where that URL needs it, `--keys-file PATH` where one was read. */
export function connectionWords(own: OwnConnection): string {
  const words = ['--base-url', shellWord(own.baseUrl)];
  if (own.allowInsecure && needsInsecure(own.baseUrl)) words.push('--allow-insecure');
  if (own.keysFile) words.push('--keys-file', shellWord(own.keysFile));
  return words.join(' ');
}

/** The run's own connection, from the spec its process built (prepare-run.ts), before any Redis. */
export function ownConnection(spec: Pick<RunRecord, 'baseUrl' | 'allowInsecure' | 'keysFile'>): {
  own: OwnConnection;
} {
  return { own: { baseUrl: spec.baseUrl, allowInsecure: spec.allowInsecure, ...optionalKeysFile(spec) } };
}

function optionalKeysFile(run: Pick<RunRecord, 'keysFile'>): { keysFile?: string } {
  return run.keysFile ? { keysFile: run.keysFile } : {};
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
  return plainHttpHost(baseUrl) !== null;
}
