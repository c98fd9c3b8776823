import {
  CLOSE_DEADLINE_MS,
  DEFAULT_LOCK_MS,
  DEFAULT_PREFIX,
  DEFAULT_PROBE_BACKOFF,
  DEFAULT_REDIS_DEADLINE_MS,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_BASE_MS,
  PRODUCING_BEAT_MS,
} from './defaults.js';
import { clusterDisplay, parseRedisCluster, type RedisClusterTarget } from './redis/cluster-nodes.js';
import { checkRedisUrl, databaseIndexOf } from './redis/redis-url.js';
import { secretTextRefusal } from './secret-text.js';
import { InvalidBaseUrlError, parseBaseUrl } from './seller-api/index.js';
import { checkKeyEnv, readTrustRules } from './trust-config.js';
import { DEFAULT_KEY_ENV, type KeyEnvAsked, type KeysFileNames, missingKeyLine } from './trust-rules.js';
import { UsageError } from './usage-error.js';

/**
 * The one place that reads the environment, so a variable means the same everywhere. Flags override
 * variables; every bad value
 * is a one-line UsageError naming the option or variable.
 *
 * | variable                  | meaning                                             | default                  |
 * |---------------------------|-----------------------------------------------------|--------------------------|
 * | SELLER_API_BASE_URL       | base URL ending in /api/v1                          | required unless sandbox  |
 * | SELLER_API_KEY            | the key (or the variable named by --key-env)        | required unless sandbox  |
 * | REDIS_URL                 | Redis of queues, runs and id maps                   | redis://127.0.0.1:6379   |
 * | REDIS_CLUSTER             | [redis[s]://[USER]:PASSWORD@]host:port,… of a Redis Cluster; instead of REDIS_URL | none |
 * | LOG_LEVEL                 | pino level                                          | info                     |
 * | CATALOG_SYNC_PREFIX       | Redis key prefix of this deployment                 | catalog-sync             |
 * | CATALOG_SYNC_LOCK_MS      | job lock (renewed every half); a killed worker's jobs return after it and a stall check | 8000 |
 * | CATALOG_SYNC_STALL_CHECK_MS | how often workers look for jobs whose lock ran out | half the lock          |
 * | CATALOG_SYNC_RETRY_BASE_MS| first backoff of a failed request (doubles each try)| 500                      |
 * | CATALOG_SYNC_RETRIES      | tries after the first for 5xx, timeouts, resets     | 4                        |
 * | CATALOG_SYNC_REDIS_DEADLINE_MS | how long `run` waits for a Redis that stopped answering (a restart takes less); on a cluster, how long a command is retried through a failover | 20000 |
 * | CATALOG_SYNC_CLOSE_DEADLINE_MS | how long a command's workers may take to close as it ends (1 s at most without Redis) | 10000 |
 * | LOG_FORMAT                | `pretty` or `json` log lines                        | pretty on a terminal, else json |
 * | CATALOG_SYNC_PROBE_MS     | first wait before an API out of reach is probed again (doubles, up to 5 min) | 5000 |
 * | CATALOG_SYNC_PRODUCING_BEAT_MS | how often a process reading a source renews its mark; a killed reader is known dead 3 beats on | 10000 |
 * | NO_COLOR                  | no progress bar: no escape sequence is written at all | unset                   |
 * | CATALOG_SYNC_KEY_ENVS     | further variables that may hold a key (comma list)  | none                     |
 * | CATALOG_SYNC_API_HOSTS    | hosts a base URL not from the command line may name | none                     |
 * | CATALOG_SYNC_WEBHOOK_HOSTS| hosts a webhook not from the command line may name  | none                     |
 * | CATALOG_SYNC_STORE_HOSTS  | hosts a store source not from the command line may name | none                 |
 */
export interface CommonConfig {
  /**
   * The Redis to connect to; with REDIS_CLUSTER, the cluster as `redis-cluster://:***@h:p,h:p`
   * (messages only: the password masked).
   */
  redisUrl: string;
  /** REDIS_CLUSTER's nodes and credentials, or null for one Redis at redisUrl. */
  redisCluster: RedisClusterTarget | null;
  /** True when REDIS_URL was given (by variable or flag): no private Redis is started then. */
  redisUrlGiven: boolean;
  /** What gave redisUrl (REDIS_CLUSTER's nodes aside): the hint of an unreachable Redis names it. */
  redisUrlFrom: '--redis-url' | 'REDIS_URL' | null;
  prefix: string;
  logLevel: string;
  lockDurationMs: number;
  /** CATALOG_SYNC_STALL_CHECK_MS: a killed worker's jobs are taken back within lock + this. */
  stallCheckMs: number;
  retryBaseMs: number;
  retries: number;
  redisDeadlineMs: number;
  /** CATALOG_SYNC_CLOSE_DEADLINE_MS: how long a command's workers may take to close (cli/close-deadline.ts). */
  closeDeadlineMs: number;
  /** CATALOG_SYNC_PROBE_MS: the first wait before an API out of reach is probed again (it doubles). */
  probeFirstMs: number;
  /**
   * CATALOG_SYNC_PRODUCING_BEAT_MS: how often a process reading a source renews its `producing` mark
   * (queue/producing-mark.ts); the later import that finds a killed reader's mark waits 3 beats.
   */
  producingBeatMs: number;
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
  // Here, where it is known whether the flag or the variable gave it.
  const redisUrlFrom =
    redisUrl === undefined ? null : flags.redisUrl !== undefined ? '--redis-url' : 'REDIS_URL';
  if (redisUrlFrom !== null) checkRedisUrl(redisUrl as string, redisUrlFrom);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}"`);
  }
  const prefix = env.CATALOG_SYNC_PREFIX ?? DEFAULT_PREFIX;
  if (!/^[\w.{}-]+$/.test(prefix)) {
    throw new UsageError(`CATALOG_SYNC_PREFIX may hold letters, digits, _ . - { } only, not "${prefix}"`);
  }
  // REDIS_CLUSTER goes before REDIS_URL (README, Environment); a --redis-url flag before both (flags
  // override variables).
  const redisCluster = flags.redisUrl ? null : parseRedisCluster(env.REDIS_CLUSTER);
  // Unused beside REDIS_CLUSTER, but the database it names would not be the one written to.
  const database = redisUrl === undefined ? 0 : databaseIndexOf(redisUrl, 'REDIS_URL');
  if (redisCluster && database !== 0) {
    throw new UsageError(
      `REDIS_URL names database ${database}, but REDIS_CLUSTER is set, and a Redis Cluster has only database 0: unset REDIS_URL (REDIS_CLUSTER is used instead), or unset REDIS_CLUSTER`,
    );
  }
  if (redisCluster && /[{}]/.test(prefix)) {
    // The tool tags every key per seller (runs/keys.ts); a tag in the prefix would come first and
    // put every key of the deployment in one slot, on one master.
    throw new UsageError(
      `CATALOG_SYNC_PREFIX holds { } ("${prefix}"): with REDIS_CLUSTER, catalog-sync tags its keys itself; drop the braces`,
    );
  }
  // A killed worker's jobs come back within lock + stall check: 8 + 4 s by default (issue 31: ≤ 15 s).
  const lockDurationMs = positiveInteger(env.CATALOG_SYNC_LOCK_MS, 'CATALOG_SYNC_LOCK_MS', DEFAULT_LOCK_MS);
  return {
    redisUrl: redisCluster ? clusterDisplay(redisCluster) : (redisUrl ?? 'redis://127.0.0.1:6379'),
    redisCluster,
    redisUrlGiven: redisUrl !== undefined || redisCluster !== null,
    redisUrlFrom: redisCluster ? null : redisUrlFrom,
    prefix,
    logLevel,
    lockDurationMs,
    stallCheckMs: positiveInteger(
      env.CATALOG_SYNC_STALL_CHECK_MS,
      'CATALOG_SYNC_STALL_CHECK_MS',
      Math.ceil(lockDurationMs / 2),
    ),
    retryBaseMs: positiveInteger(
      env.CATALOG_SYNC_RETRY_BASE_MS,
      'CATALOG_SYNC_RETRY_BASE_MS',
      DEFAULT_RETRY_BASE_MS,
    ),
    retries: positiveInteger(env.CATALOG_SYNC_RETRIES, 'CATALOG_SYNC_RETRIES', DEFAULT_RETRIES, true),
    redisDeadlineMs: positiveInteger(
      env.CATALOG_SYNC_REDIS_DEADLINE_MS,
      'CATALOG_SYNC_REDIS_DEADLINE_MS',
      DEFAULT_REDIS_DEADLINE_MS,
    ),
    closeDeadlineMs: positiveInteger(
      env.CATALOG_SYNC_CLOSE_DEADLINE_MS,
      'CATALOG_SYNC_CLOSE_DEADLINE_MS',
      CLOSE_DEADLINE_MS,
    ),
    probeFirstMs: positiveInteger(
      env.CATALOG_SYNC_PROBE_MS,
      'CATALOG_SYNC_PROBE_MS',
      DEFAULT_PROBE_BACKOFF.firstMs,
    ),
    producingBeatMs: positiveInteger(
      env.CATALOG_SYNC_PRODUCING_BEAT_MS,
      'CATALOG_SYNC_PRODUCING_BEAT_MS',
      PRODUCING_BEAT_MS,
    ),
  };
}

/**
 * The Seller API endpoint and key; the key is read from the variable `--key-env` names.
 * `sandboxOffered`: the command takes `--sandbox` (`run` alone), so the missing base URL's line names it.
 * `asked`: how the variable was named and for which seller, for the line of a missing key (trust-rules.ts).
 */
export function readApiConfig(
  env: NodeJS.ProcessEnv,
  flags: { baseUrl?: string; keyEnv?: string; allowInsecure?: boolean },
  sandboxOffered = false,
  keysFile?: KeysFileNames,
  asked?: KeyEnvAsked,
): ApiConfig {
  const keyEnv = flags.keyEnv ?? DEFAULT_KEY_ENV;
  checkKeyEnv(keyEnv, readTrustRules(env));
  const rawBaseUrl = flags.baseUrl ?? env.SELLER_API_BASE_URL;
  if (!rawBaseUrl) {
    throw new UsageError(
      `SELLER_API_BASE_URL is not set (or use --base-url${sandboxOffered ? ', or --sandbox for a rehearsal' : ''})`,
    );
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
  if (!apiKey) throw new UsageError(missingKeyLine(keyEnv, keysFile, asked));
  // Sent, it would be a header Node refuses: every request failed and retried as a network error.
  const refusal = secretTextRefusal(keyEnv, apiKey, 'API key');
  if (refusal) throw new UsageError(refusal);
  return { baseUrl, keyEnv, apiKey, allowInsecure };
}

/** True when LOG_LEVEL is set (and not empty): the user chose the level, no command quietens it. */
export function logLevelGiven(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.LOG_LEVEL);
}

/**
 * Whether `run` may draw its progress bar on `stream`, which takes escape sequences (cursor moves):
 * only on a terminal, and not with NO_COLOR set (not empty) or TERM=dumb. Otherwise progress is a
 * log line now and then, and no escape byte is written at all.
 */
export function progressBarAllowed(env: NodeJS.ProcessEnv, stream: NodeJS.WritableStream): boolean {
  return (stream as NodeJS.WriteStream).isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/**
 * LOG_FORMAT: `pretty` (readable lines) or `json`; unset, pretty on a terminal and JSON otherwise
 * (a cron log, a pipe, a log collector). `colorize`: pretty lines in colour, on a terminal without
 * NO_COLOR (or TERM=dumb) only.
 */
export function readLogFormat(
  env: NodeJS.ProcessEnv,
  stream: NodeJS.WritableStream,
): { format: 'json' | 'pretty'; colorize: boolean } {
  const terminal = (stream as NodeJS.WriteStream).isTTY === true;
  const given = (env.LOG_FORMAT ?? '').trim().toLowerCase();
  if (given !== '' && given !== 'json' && given !== 'pretty') {
    throw new UsageError(`LOG_FORMAT must be json or pretty, not "${env.LOG_FORMAT}"`);
  }
  const format = given === '' ? (terminal ? 'pretty' : 'json') : given;
  return { format, colorize: format === 'pretty' && progressBarAllowed(env, stream) };
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
