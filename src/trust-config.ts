import { secretTextRefusal } from './secret-text.js';
import {
  type AllowedHost,
  API_HOSTS_VARIABLE,
  baseUrlRefusal,
  hostOfUrl,
  isEnvName,
  KEY_ENVS_VARIABLE,
  keyEnvRefusal,
  parseHostEntry,
  STORE_HOSTS_VARIABLE,
  type TrustRules,
  WEBHOOK_HOSTS_VARIABLE,
} from './trust-rules.js';
import { UsageError } from './usage-error.js';

/*
 * What this process trusts, read from its own environment (README, Security): the key variables it
 * may read, the hosts a base URL, a webhook or a store source not given on its command line may name.
 * The rules themselves (what is allowed, in what words a refusal is said) are trust-rules.ts.
 */

/**
 * What this process's environment trusts (README, Security: "Trusted: …"): the key
 * variables of CATALOG_SYNC_KEY_ENVS, and the hosts of SELLER_API_BASE_URL and CATALOG_SYNC_API_HOSTS,
 * plus the base URLs this process was given on its own command line. A bad list is a UsageError.
 */
export function readTrustRules(
  env: NodeJS.ProcessEnv,
  commandLineBaseUrls: readonly string[] = [],
): TrustRules {
  const keyEnvs = commaList(env[KEY_ENVS_VARIABLE]);
  for (const name of keyEnvs) {
    if (!isEnvName(name)) {
      throw new UsageError(`${KEY_ENVS_VARIABLE} lists variable names, and "${name}" is none`);
    }
  }
  const hosts: AllowedHost[] = [];
  const base = env.SELLER_API_BASE_URL ? hostOfUrl(env.SELLER_API_BASE_URL, 'SELLER_API_BASE_URL') : null;
  if (base) hosts.push(base);
  hosts.push(...hostList(env, API_HOSTS_VARIABLE));
  for (const url of commandLineBaseUrls) {
    const host = hostOfUrl(url, 'the command line');
    if (host) hosts.push(host);
  }
  return { keyEnvs, hosts };
}

/**
 * The hosts this process tells a run's webhook on: CATALOG_SYNC_WEBHOOK_HOSTS, plus the host of the
 * `--notify` URL given on its own command line (the operator typed it). A webhook read from Redis
 * is never trusted because Redis says so. A bad list is a UsageError.
 */
export function readWebhookHosts(
  env: NodeJS.ProcessEnv,
  commandLineNotify: readonly string[] = [],
): AllowedHost[] {
  const hosts = hostList(env, WEBHOOK_HOSTS_VARIABLE);
  for (const url of commandLineNotify) {
    const host = hostOfUrl(url, 'the command line');
    if (host) hosts.push(host);
  }
  return hosts;
}

/**
 * The hosts a store source that this process's command line did not give (a job file's, a scheduled
 * import's) may name: CATALOG_SYNC_STORE_HOSTS, read from this process's own environment, since the
 * store gets the operator's credentials. A bad list is a UsageError.
 */
export function readStoreHosts(env: NodeJS.ProcessEnv): AllowedHost[] {
  return hostList(env, STORE_HOSTS_VARIABLE);
}

function hostList(env: NodeJS.ProcessEnv, variable: string): AllowedHost[] {
  return commaList(env[variable]).map((entry) => {
    const host = parseHostEntry(entry, variable);
    if (!host) {
      throw new UsageError(
        `${variable} lists hosts (host or host:port, comma-separated), and "${entry}" is none`,
      );
    }
    return host;
  });
}

/** Refuses, in one line naming the variable and how to allow it, a key variable the rules do not allow. */
export function checkKeyEnv(name: string, rules: TrustRules, origin = '--key-env'): void {
  if (!isEnvName(name)) throw new UsageError(`${origin} takes an environment variable name, not "${name}"`);
  const refusal = keyEnvRefusal(name, rules);
  if (refusal) throw new UsageError(`${origin}: ${refusal}`);
}

/** Refuses, in one line naming the host and how to allow it, a base URL (not from the command line) on another host. */
export function checkBaseUrlHost(url: string, rules: TrustRules, origin: string): void {
  const refusal = baseUrlRefusal(url, rules);
  if (refusal) throw new UsageError(`${origin}: ${refusal}`);
}

/** The key held by an allowed key variable, trimmed; undefined when unset or blank. */
export function readKey(env: NodeJS.ProcessEnv, keyEnv: string, rules: TrustRules): string | undefined {
  if (keyEnvRefusal(keyEnv, rules) !== null) return undefined;
  return env[keyEnv]?.trim() || undefined;
}

/**
 * `readKey`, refused in one line (exit 2) when the value holds what no key has (secret-text.ts): for
 * the commands that hold a key against a run's seller (approve, cancel, resume), which would
 * otherwise call a copy-pasted key with a typographic quote "another seller's key".
 */
export function readCheckedKey(
  env: NodeJS.ProcessEnv,
  keyEnv: string,
  rules: TrustRules,
): string | undefined {
  const key = readKey(env, keyEnv, rules);
  const refusal = key === undefined ? null : secretTextRefusal(keyEnv, key, 'API key');
  if (refusal) throw new UsageError(refusal);
  return key;
}

/** `a, b,,c` → [a, b, c]; unset or blank → []. */
function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
