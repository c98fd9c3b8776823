import {
  API_HOSTS_VARIABLE,
  KEY_ENVS_VARIABLE,
  STORE_HOSTS_VARIABLE,
  WEBHOOK_HOSTS_VARIABLE,
} from '../trust-rules.js';
import { DATA_DIR_VARIABLE } from './job-paths.js';
import { nearestName } from './nearest-name.js';

/**
 * Every CATALOG_SYNC_ variable this version reads (config.ts, docs/options.md "Environment"), and the
 * test suite's CATALOG_SYNC_REAL_FIXTURES (README), which a CI environment hands to the CLI as well.
 */
export const KNOWN_VARIABLES: readonly string[] = [
  'CATALOG_SYNC_PREFIX',
  'CATALOG_SYNC_LOCK_MS',
  'CATALOG_SYNC_STALL_CHECK_MS',
  'CATALOG_SYNC_RETRY_BASE_MS',
  'CATALOG_SYNC_RETRIES',
  'CATALOG_SYNC_REDIS_DEADLINE_MS',
  'CATALOG_SYNC_CLOSE_DEADLINE_MS',
  'CATALOG_SYNC_PROBE_MS',
  'CATALOG_SYNC_PRODUCING_BEAT_MS',
  KEY_ENVS_VARIABLE,
  API_HOSTS_VARIABLE,
  WEBHOOK_HOSTS_VARIABLE,
  STORE_HOSTS_VARIABLE,
  DATA_DIR_VARIABLE,
  'CATALOG_SYNC_REAL_FIXTURES',
];

/**
 * A warning per CATALOG_SYNC_ variable in `env` this version does not read: a mistyped one
 * (`CATALOG_SYNC_PREFX`) was taken for unset without a word, and `status` looked under the default
 * prefix. Never a refusal: a newer version's variable, set for a whole host, must not stop this one.
 * A key variable CATALOG_SYNC_KEY_ENVS lists (`--key-env` names no other) is the operator's own. The
 * value is never said: it may be a key.
 */
export function unknownVariableLines(env: NodeJS.ProcessEnv): string[] {
  const keyEnvs = (env[KEY_ENVS_VARIABLE] ?? '').split(',').map((name) => name.trim());
  return Object.keys(env)
    .filter((name) => name.startsWith('CATALOG_SYNC_'))
    .filter((name) => !KNOWN_VARIABLES.includes(name) && !keyEnvs.includes(name))
    .sort()
    .map((name) => {
      const meant = nearestName(name, KNOWN_VARIABLES);
      const unknown = `${name} is not a variable catalog-sync knows, and is ignored`;
      return meant
        ? `${unknown}: did you mean ${meant}?`
        : `${unknown} (a newer version may know it; docs/options.md, Environment, lists those this one reads)`;
    });
}
