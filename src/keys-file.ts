import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from './project-root.js';
import { secretTextRefusal } from './secret-text.js';
import { isStoreCredentialVariable } from './sources/stores/credentials.js';
import { readTrustRules } from './trust-config.js';
import { API_HOSTS_VARIABLE, isEnvName, isKeyEnvAllowed, KEY_ENVS_VARIABLE } from './trust-rules.js';
import { UsageError } from './usage-error.js';

/**
 * `--keys-file FILE` (issue 13): a worker serving many sellers reads their keys from one file of
 * `NAME=KEY` lines instead of one environment variable each. Every message names the file and the
 * line number, and a NAME only once it is known to be a key variable, never the value: a line that
 * is not `NAME=KEY` may be a pasted key itself.
 */

/** Names that decide what is trusted: a file of keys must not widen what may hold or receive a key. */
const NOT_KEYS = new Set([KEY_ENVS_VARIABLE, API_HOSTS_VARIABLE]);

/** Parses the file's text: a map of NAME to KEY. `rules` are the operator's (CATALOG_SYNC_KEY_ENVS). */
export function parseKeysFile(text: string, file: string, keyEnvs: readonly string[]): Map<string, string> {
  const entries = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    // `export NAME=KEY`, as dotenv reads it: the same file may be sourced by a shell (`. keys.env`).
    const line = raw.trim().replace(/^export\s+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const at = `--keys-file ${file}: line ${index + 1}`;
    const equals = line.indexOf('=');
    if (equals < 0) throw new UsageError(`${at} is not NAME=KEY (blank lines and # comments are allowed)`);
    const name = line.slice(0, equals).trim();
    const key = unquoted(line.slice(equals + 1).trim());
    // A name that is no variable name is not shown: it may be part of a key.
    if (!isEnvName(name) || name.length > 120)
      throw new UsageError(`${at}: the text before = is not a variable name (NAME=KEY)`);
    // A store's token or keys are not read from here (docs/stores.md): say where they go.
    if (isStoreCredentialVariable(name) && !isKeyEnvAllowed(name, keyEnvs))
      throw new UsageError(
        `${at}: ${name} is a store's credential, which a keys file does not take (it holds Seller API keys): ` +
          `a store's token or keys come from the environment; for cron, from a file of variables the cron line reads (${join(projectRoot(), 'docs', 'running.md')}, Cron)`,
      );
    // Nor is one that may not hold a key: a pasted base64 key ends in `=` and reads as a name.
    if (NOT_KEYS.has(name) || !isKeyEnvAllowed(name, keyEnvs))
      throw new UsageError(
        // Both steps for a listed name: the list lets it hold a key, --key-env makes it the one read.
        `${at}: the name before = is not a key variable: rename it SELLER_API_KEY (or SELLER_API_KEY_<NAME>, ` +
          `and give --key-env SELLER_API_KEY_<NAME>), or list it in ${KEY_ENVS_VARIABLE} (a comma list, in the environment) and give --key-env with it`,
      );
    if (key === '') throw new UsageError(`${at}: ${name} has no key after =`);
    // No API key holds a space or a quote (a Bearer token cannot): sent, it would only be a 401
    // that says nothing of the cause. A space is most often an inline comment (`KEY # note`).
    if (/\s/.test(key))
      throw new UsageError(
        `${at}: ${name} has a space in its key, which no API key has: an inline # comment must go on a line of its own`,
      );
    if (/["']/.test(key))
      throw new UsageError(
        `${at}: ${name} has a quote in its key, which no API key has: quote the whole key (NAME="KEY") or none of it`,
      );
    const refusal = secretTextRefusal(name, key, 'API key');
    if (refusal) throw new UsageError(`${at}: ${refusal}`);
    if (entries.has(name)) throw new UsageError(`${at}: ${name} is given twice in the file`);
    entries.set(name, key);
  }
  return entries;
}

/**
 * A key wholly in matching single or double quotes, without them: env files written for systemd,
 * Docker or dotenv quote values so. Anything else as it is.
 */
function unquoted(value: string): string {
  const quote = value[0];
  if (value.length >= 2 && (quote === '"' || quote === "'") && value.endsWith(quote))
    return value.slice(1, -1);
  return value;
}

/** Reads and checks the file: a regular file that only its owner may read or write (mode 600). */
export async function readKeysFile(file: string, keyEnvs: readonly string[]): Promise<Map<string, string>> {
  return (await readKeysFileAt(file, keyEnvs)).entries;
}

/**
 * As readKeysFile, with the file's signature as it was read (fileSignature): a worker reads the
 * file again when it changes (keys-file-reload.ts).
 */
export async function readKeysFileAt(
  file: string,
  keyEnvs: readonly string[],
): Promise<{ entries: Map<string, string>; signature: string }> {
  let text: string;
  let signature: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`--keys-file ${file} is not a regular file`);
    // Keys readable by others are keys leaked; writable by others, keys replaced.
    if ((info.mode & 0o077) !== 0)
      throw new UsageError(
        `--keys-file ${file} may be read or written by others (mode ${(info.mode & 0o777).toString(8)}): run chmod 600 ${file}`,
      );
    signature = fileSignature(info);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // A wrong path is the common case: said in words, not as the errno a newcomer has to look up.
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`--keys-file ${file}: no such file`);
    throw new UsageError(`--keys-file ${file} cannot be read (${code})`);
  }
  return { entries: parseKeysFile(text, file, keyEnvs), signature };
}

/**
 * What changes when a file is edited, replaced (an editor's save, a config tool's rename) or
 * chmod-ed: its inode, size, modification and status-change times. Taken before the read: a write
 * during it changes the signature again, so the next look reads the file once more.
 */
export function fileSignature(info: Pick<Stats, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/**
 * The key environment: `env` with the file's entries added. A name the environment sets to another
 * value is refused: which of the two keys would serve the seller would be a guess.
 */
export function mergeKeys(
  env: NodeJS.ProcessEnv,
  entries: ReadonlyMap<string, string>,
  file: string,
): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, key] of entries) {
    const set = env[name]?.trim();
    if (set && set !== key)
      throw new UsageError(
        `--keys-file ${file}: ${name} is set in the environment too, to another key: keep one of them`,
      );
    merged[name] = key;
  }
  return merged;
}

/** What a command read from its `--keys-file`: enough for a long-running worker to read it again. */
export interface LoadedKeysFile {
  file: string;
  /** The environment before the file's keys joined it: a key dropped from the file goes back to this. */
  base: NodeJS.ProcessEnv;
  /** The names the file set, and its signature (fileSignature) when it was read. */
  names: readonly string[];
  signature: string;
}

/**
 * Gives a command's `io` the key environment of `--keys-file` (when given): every place that reads a
 * key from `io.env` (readKey, the workers) then finds the file's keys too. The process's own
 * environment is left alone, so nothing it starts inherits the keys.
 */
export async function applyKeysFile(
  io: { env: NodeJS.ProcessEnv },
  file: string | undefined,
): Promise<LoadedKeysFile | undefined> {
  if (file === undefined) return undefined;
  const base = io.env;
  const { entries, signature } = await readKeysFileAt(file, readTrustRules(base).keyEnvs);
  io.env = mergeKeys(base, entries, file);
  return { file, base, names: [...entries.keys()], signature };
}

/** The option's help, the same on every command that reads a key. */
export const KEYS_FILE_HELP =
  'also read keys from FILE: NAME=KEY lines (# comments), NAME a key variable as --key-env takes; mode 600';
