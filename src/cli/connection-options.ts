import { resolve } from 'node:path';
import type { Command } from 'commander';
import { KEYS_FILE_HELP } from '../keys-file.js';
import { shellWord } from '../runs/connection-words.js';
import type { RunRecord } from '../runs/run-store.js';
// Not the package index: cancel loads no HTTP client for a check of its --base-url.
import { parseBaseUrl } from '../seller-api/base-url.js';
import { InvalidBaseUrlError } from '../seller-api/errors/invalid-base-url-error.js';
import { baseUrlRefusal, DEFAULT_KEY_ENV, type KeysFileNames, type TrustRules } from '../trust-rules.js';
import { UsageError } from './usage-error.js';

/**
 * How a command reaches the Seller API and Redis, the same on every command that talks to the API
 * (run, import, approve, revert, resume, cancel, ping, the exports): a cron line or a script gives
 * one set of connection options to each of them, from an environment that holds nothing else.
 */
export interface ConnectionFlags {
  baseUrl?: string;
  /** Read by main.ts's preAction hook: its keys join `io.env` before the action runs. */
  keysFile?: string;
  keyEnv?: string;
  allowInsecure: boolean;
  redisUrl?: string;
}

export interface ConnectionOptionsOf {
  /** True for a command that uses Redis: it takes `--redis-url`. */
  redis: boolean;
  /** `--key-env`'s help, when the command reads the key its own way. */
  keyEnvHelp?: string;
  /**
   * `--key-env`'s default (SELLER_API_KEY); null: none, the command knows the variable otherwise
   * (approve: the one the run was made with).
   */
  keyEnvDefault?: string | null;
}

export const BASE_URL_HELP = 'the Seller API base URL, ending in /api/v1 (overrides SELLER_API_BASE_URL)';
export const REDIS_URL_HELP = 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)';

/** Adds `--base-url`, `--keys-file`, `--key-env`, `--allow-insecure` and, where Redis is used, `--redis-url`. */
export function addConnectionOptions(command: Command, of: ConnectionOptionsOf): Command {
  const keyEnvHelp = of.keyEnvHelp ?? "the environment variable that holds the seller's key";
  const keyEnvDefault = of.keyEnvDefault === undefined ? DEFAULT_KEY_ENV : of.keyEnvDefault;
  command.option('--base-url <url>', BASE_URL_HELP).option('--keys-file <file>', KEYS_FILE_HELP);
  if (keyEnvDefault === null) command.option('--key-env <name>', keyEnvHelp);
  else command.option('--key-env <name>', keyEnvHelp, keyEnvDefault);
  command.option('--allow-insecure', 'allow an http:// base URL that is not loopback', false);
  if (of.redis) command.option('--redis-url <url>', REDIS_URL_HELP);
  return command;
}

/**
 * `--base-url`, checked (scheme, `/api/v1`, `--allow-insecure`) and in the form runs record it: the
 * base URL the command line vouches for, where a command reads the API's URL from a run or a seller
 * in Redis. Empty without `--base-url`.
 */
export function commandLineBaseUrls(flags: Pick<ConnectionFlags, 'baseUrl' | 'allowInsecure'>): string[] {
  if (flags.baseUrl === undefined) return [];
  try {
    return [
      parseBaseUrl(flags.baseUrl, { allowInsecure: flags.allowInsecure }).toString().replace(/\/$/, ''),
    ];
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) throw new UsageError(`--base-url: ${error.message}`);
    throw error;
  }
}

/**
 * Why a key may not go to a base URL read from Redis (a run's, a paused seller's), ending with the
 * option that vouches for it: from a shell that exported nothing of cron's line, `--base-url` is
 * the way (`approve`, `resume`). Named as an option, never filled in with the URL Redis holds: a
 * forged record's URL pasted back would be the operator vouching for it. Null when this
 * environment allows its host.
 */
export function recordedBaseUrlRefusal(url: string, rules: Pick<TrustRules, 'hosts'>): string | null {
  const refusal = baseUrlRefusal(url, rules);
  return refusal && `${refusal}; or give the API's URL on the command line with --base-url`;
}

/**
 * `give --keys-file PATH, which run … read it from` when the run recorded a keys file other than
 * the one given here (`approve`, `revert` of a run whose key is not found, or is another seller's),
 * else `otherwise`.
 */
export function runKeysFileHelp(
  run: Pick<RunRecord, 'id' | 'keysFile'>,
  given: Pick<KeysFileNames, 'file'> | undefined,
  otherwise: string,
): string {
  if (!run.keysFile || (given && resolve(given.file) === run.keysFile)) return otherwise;
  return `give --keys-file ${shellWord(run.keysFile)}, which run ${run.id} read it from`;
}
