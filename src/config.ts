import { parseDuration } from './duration.js';
import { InvalidBaseUrlError, parseBaseUrl, parseDailyReset } from './seller-api/index.js';
import { MAX_RECORD_BYTES, MIN_RECORD_BYTES, parseByteSize } from './sources/limits.js';
import { UsageError } from './usage-error.js';

/**
 * The one place that reads the environment (STYLE.md). Flags override variables; every bad value
 * is a one-line UsageError naming the option or variable.
 *
 * | variable                  | meaning                                             | default                  |
 * |---------------------------|-----------------------------------------------------|--------------------------|
 * | SELLER_API_BASE_URL       | base URL ending in /api/v1                          | required unless sandbox  |
 * | SELLER_API_KEY            | the key (or the variable named by --key-env)        | required unless sandbox  |
 * | REDIS_URL                 | Redis of queues, runs and id maps                   | redis://127.0.0.1:6379   |
 * | LOG_LEVEL                 | pino level                                          | info                     |
 * | CATALOG_SYNC_PREFIX       | Redis key prefix of this deployment                 | catalog-sync             |
 * | CATALOG_SYNC_LOCK_MS      | job lock; a killed worker's jobs return after it    | 30000                    |
 * | CATALOG_SYNC_RETRY_BASE_MS| first backoff of a failed request (doubles each try)| 500                      |
 * | CATALOG_SYNC_RETRIES      | tries after the first for 5xx, timeouts, resets     | 4                        |
 * | CATALOG_SYNC_REDIS_DEADLINE_MS | how long `run` waits for a Redis that stopped answering (a restart takes less) | 20000 |
 */
export interface CommonConfig {
  redisUrl: string;
  /** True when REDIS_URL was given (by variable or flag): no private Redis is started then. */
  redisUrlGiven: boolean;
  prefix: string;
  logLevel: string;
  lockDurationMs: number;
  retryBaseMs: number;
  retries: number;
  redisDeadlineMs: number;
}

export interface ApiConfig {
  baseUrl: string;
  keyEnv: string;
  apiKey: string;
  allowInsecure: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function readCommonConfig(env: NodeJS.ProcessEnv, flags: { redisUrl?: string } = {}): CommonConfig {
  // An empty variable (`REDIS_URL=` in a crontab) means unset, as in most tools.
  const redisUrl = flags.redisUrl ?? (env.REDIS_URL || undefined);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}"`);
  }
  const prefix = env.CATALOG_SYNC_PREFIX ?? 'catalog-sync';
  if (!/^[\w.{}-]+$/.test(prefix)) {
    throw new UsageError(`CATALOG_SYNC_PREFIX may hold letters, digits, _ . - { } only, not "${prefix}"`);
  }
  return {
    redisUrl: redisUrl ?? 'redis://127.0.0.1:6379',
    redisUrlGiven: redisUrl !== undefined,
    prefix,
    logLevel,
    lockDurationMs: positiveInteger(env.CATALOG_SYNC_LOCK_MS, 'CATALOG_SYNC_LOCK_MS', 30_000),
    retryBaseMs: positiveInteger(env.CATALOG_SYNC_RETRY_BASE_MS, 'CATALOG_SYNC_RETRY_BASE_MS', 500),
    retries: positiveInteger(env.CATALOG_SYNC_RETRIES, 'CATALOG_SYNC_RETRIES', 4, true),
    redisDeadlineMs: positiveInteger(
      env.CATALOG_SYNC_REDIS_DEADLINE_MS,
      'CATALOG_SYNC_REDIS_DEADLINE_MS',
      20_000,
    ),
  };
}

/** The Seller API endpoint and key; the key is read from the variable `--key-env` names. */
export function readApiConfig(
  env: NodeJS.ProcessEnv,
  flags: { baseUrl?: string; keyEnv?: string; allowInsecure?: boolean },
): ApiConfig {
  const keyEnv = flags.keyEnv ?? 'SELLER_API_KEY';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) {
    throw new UsageError(`--key-env takes an environment variable name, not "${keyEnv}"`);
  }
  const rawBaseUrl = flags.baseUrl ?? env.SELLER_API_BASE_URL;
  if (!rawBaseUrl) {
    throw new UsageError('SELLER_API_BASE_URL is not set (or use --base-url, or --sandbox for a rehearsal)');
  }
  const allowInsecure = flags.allowInsecure ?? false;
  let baseUrl: string;
  try {
    baseUrl = parseBaseUrl(rawBaseUrl, { allowInsecure }).toString().replace(/\/$/, '');
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) throw new UsageError(error.message);
    throw error;
  }
  const apiKey = env[keyEnv]?.trim();
  if (!apiKey) throw new UsageError(`${keyEnv} is not set: it must hold the seller's API key`);
  return { baseUrl, keyEnv, apiKey, allowInsecure };
}

export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new UsageError(`--concurrency takes a whole number from 1 to 256, not "${value}"`);
  }
  return n;
}

export function parseDailyBudget(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--daily-budget takes a whole number above 0, not "${value}"`);
  return n;
}

export function checkDailyReset(value: string): string {
  try {
    parseDailyReset(value);
    return value.trim();
  } catch {
    throw new UsageError(`--daily-reset takes a UTC time as HH:MM, not "${value}"`);
  }
}

export function parseFieldList(value: string, option = '--fields'): string[] {
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError(`${option} takes a comma-separated list of product fields`);
  return fields;
}

/** `--full-read-after`: how old the last full read of the seller's products may be for `--incremental`. */
export function parseFullReadAfter(value: string): number {
  const ms = parseDuration(value);
  if (ms === null)
    throw new UsageError(`--full-read-after takes a duration such as 7d, 12h or 30m, not "${value}"`);
  return ms;
}

/** `--source-timeout`: the stall window of a source URL. */
export function parseSourceTimeout(value: string): number {
  const ms = parseDuration(value);
  if (ms === null || ms < 100)
    throw new UsageError(
      `--source-timeout takes a duration of at least 100ms, such as 30s or 2m, not "${value}"`,
    );
  return ms;
}

/** `--max-record-bytes`: `8MiB`, `512KiB` or a number of bytes, between 1 KiB and 1 GiB. */
export function parseMaxRecordBytes(value: string): number {
  const bytes = parseByteSize(value);
  if (bytes === null || bytes < MIN_RECORD_BYTES || bytes > MAX_RECORD_BYTES)
    throw new UsageError(
      `--max-record-bytes takes a size from 1KiB to 1GiB, such as 8MiB, 512KiB or 1048576, not "${value}"`,
    );
  return bytes;
}

function positiveInteger(
  raw: string | undefined,
  name: string,
  fallback: number,
  zeroAllowed = false,
): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroAllowed ? 0 : 1)) {
    throw new UsageError(`${name} takes a whole number${zeroAllowed ? '' : ' above 0'}, not "${raw}"`);
  }
  return n;
}
