/**
 * Where a key may come from and where it may go (README, Security: "Trusted: …").
 * The operator's environment and command line are trusted; a job file's choices (`keyEnv`,
 * `baseUrl`) and anything read back from Redis are not, and must pass these rules. Pure: config.ts
 * reads the environment and builds the rules, the callers apply them.
 */

import { quoteForMessage } from './terminal-safe.js';

/** The variable a key is read from when nothing else is said. */
export const DEFAULT_KEY_ENV = 'SELLER_API_KEY';
/** Any variable named like this may hold a key (`SELLER_API_KEY_SHOP_B`). */
export const KEY_ENV_PREFIX = 'SELLER_API_KEY_';
/** The variables that allow more: comma lists, read from the environment only. */
export const KEY_ENVS_VARIABLE = 'CATALOG_SYNC_KEY_ENVS';
export const API_HOSTS_VARIABLE = 'CATALOG_SYNC_API_HOSTS';
export const WEBHOOK_HOSTS_VARIABLE = 'CATALOG_SYNC_WEBHOOK_HOSTS';
export const STORE_HOSTS_VARIABLE = 'CATALOG_SYNC_STORE_HOSTS';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEnvName(name: string): boolean {
  return ENV_NAME.test(name);
}

/** A host a key may be sent to; `port` null: any port of that host. */
export interface AllowedHost {
  hostname: string;
  port: string | null;
  /** Said when a base URL is refused: where the allowed hosts come from. */
  from: string;
}

export interface TrustRules {
  /** Further key variables (`CATALOG_SYNC_KEY_ENVS`), besides SELLER_API_KEY and SELLER_API_KEY_*. */
  keyEnvs: readonly string[];
  /** The hosts a base URL that the command line did not give may name. */
  hosts: readonly AllowedHost[];
}

/** `SELLER_API_KEY`, `SELLER_API_KEY_…`, or a name the operator listed. Exact, case included. */
export function isKeyEnvAllowed(name: string, listed: readonly string[] = []): boolean {
  if (!isEnvName(name)) return false;
  return name === DEFAULT_KEY_ENV || name.startsWith(KEY_ENV_PREFIX) || listed.includes(name);
}

/** Why a key may not be read from `name`, naming the variable and how to allow it; null when it may. */
export function keyEnvRefusal(name: string, rules: Pick<TrustRules, 'keyEnvs'>): string | null {
  if (isKeyEnvAllowed(name, rules.keyEnvs)) return null;
  // A name read from Redis may be anything: shown short and terminal-safe.
  const shown = isEnvName(name) && name.length <= 120 ? name : `"${quoteForMessage(name, 60)}"`;
  return (
    `${shown} is not a key variable: a key is read only from ${DEFAULT_KEY_ENV}, ${KEY_ENV_PREFIX}<NAME> ` +
    `or a variable listed in ${KEY_ENVS_VARIABLE} (a comma list, in the environment)`
  );
}

/** The `--keys-file` a command read: its name and the key variables it set (keys-file.ts). */
export interface KeysFileNames {
  file: string;
  names: readonly string[];
}

/** How the key variable was asked for: what a missing key's hint may suggest, and in whose words. */
export interface KeyEnvAsked {
  /** True when the user named the variable (`--key-env`, a job's `keyEnv:`); false: the default. */
  named: boolean;
  /** Another variable, said where the user would give it: `--key-env NAME`, `keyEnv: NAME in nightly.yml`. */
  option: (name: string) => string;
  /** The seller the run is for (`--seller`, a job's `seller:`), when one is given. */
  seller?: string;
}

/**
 * The line for a key variable with no key. With a keys file, what it holds instead: a key under
 * another name is read only once `--key-env` names it, which is what a newcomer misses. The hint is
 * followed as typed, and another seller's variable would write this seller's catalog into that
 * seller's account: so a name the user gave is swapped only for the same name mistyped, and the
 * one name of a file is not offered for a seller it is clearly not named for.
 * `asked` absent: a command that keeps no origins (ping, the exports), where only SELLER_API_KEY
 * can be the default.
 */
export function missingKeyLine(
  keyEnv: string,
  keysFile?: KeysFileNames,
  asked: KeyEnvAsked = { named: keyEnv !== DEFAULT_KEY_ENV, option: (name) => `--key-env ${name}` },
): string {
  if (!keysFile)
    return `${keyEnv} is not set: it must hold the seller's API key (set it, give it in --keys-file, or name another variable with --key-env)`;
  const { names } = keysFile;
  const held = `${keyEnv} is not set, and --keys-file ${keysFile.file}`;
  if (names.length === 0) return `${held} holds no key: add a line ${keyEnv}=KEY to it`;
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')}, …` : names.join(', ');
  if (asked.named) {
    const meant = onlyOne(names.filter((name) => name !== keyEnv && sameNameMistyped(keyEnv, name)));
    return `${held} does not hold it (it holds ${shown}): ${
      meant ? `use ${asked.option(meant)} instead` : `add this seller's key to it as ${keyEnv}=KEY`
    }`;
  }
  const { seller } = asked;
  const only = names.length === 1 ? names[0] : undefined;
  if (only !== undefined && (seller === undefined || namedFor(only, seller)))
    return `${held} holds ${only} only: add ${asked.option(only)}`;
  if (only !== undefined)
    return `${held} holds ${only} only, not named for seller ${seller}: add this seller's key to it as ${KEY_ENV_PREFIX}<NAME>=KEY and give ${asked.option(`${KEY_ENV_PREFIX}<NAME>`)}`;
  const sellers = seller === undefined ? undefined : onlyOne(names.filter((name) => namedFor(name, seller)));
  return `${held} holds ${shown}: ${sellers ? `add ${asked.option(sellers)}` : `name this seller's with ${asked.option('NAME')}`}`;
}

function onlyOne(names: readonly string[]): string | undefined {
  return names.length === 1 ? names[0] : undefined;
}

/**
 * Plainly one name typed two ways: the same letters and digits in another case or with other
 * underscores (`SHOPB`, `shop_b`: `SHOP_B`), or two neighbouring letters swapped (`SHPO_B`). Not a
 * letter or digit other, more or less: `SHOP_A`, `STORE12`, `SHOPS` are as often another seller.
 */
function sameNameMistyped(asked: string, held: string): boolean {
  const a = folded(asked);
  const b = folded(held);
  if (a === b) return true;
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((letter, at) => (letter === b[at] ? [] : [at]));
  const [at, next] = differ;
  return (
    differ.length === 2 &&
    at !== undefined &&
    next === at + 1 &&
    a[at] === b[next] &&
    a[next] === b[at] &&
    /^[A-Z]{2}$/.test(a.slice(at, at + 2))
  );
}

/** True when variable `name` is plainly named for `seller` (`SELLER_API_KEY_SHOP_B`, seller `shop-b`). */
function namedFor(name: string, seller: string): boolean {
  const suffix = name.toUpperCase().startsWith(KEY_ENV_PREFIX) ? name.slice(KEY_ENV_PREFIX.length) : name;
  return folded(suffix) !== '' && sameNameMistyped(suffix, seller);
}

/** Upper case, letters and digits only: what is left of a name once case and separators are set aside. */
function folded(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * One entry of `CATALOG_SYNC_API_HOSTS`: `host`, `host:port`, `[v6]` or `[v6]:port`. Returns null
 * for anything else (a URL, a path, credentials): a list that says more than hosts is a mistake.
 */
export function parseHostEntry(entry: string, from: string): AllowedHost | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]/@?#\s]+)(?::(\d{1,5}))?$/.exec(entry.trim());
  if (!match) return null;
  const hostname = normalHostname(match[1] as string);
  if (hostname === null) return null;
  const port = match[2] === undefined ? null : String(Number(match[2]));
  if (port !== null && Number(port) > 65_535) return null;
  return { hostname, port, from };
}

/** The host of a base URL as an exact allowed host (its port included): SELLER_API_BASE_URL's, --base-url's. */
export function hostOfUrl(url: string, from: string): AllowedHost | null {
  const parsed = parseUrl(url);
  return parsed ? { hostname: parsed.hostname, port: parsed.port, from } : null;
}

/** True when `url`'s host (and port, where the entry names one) is among `hosts`. */
export function isHostAllowed(url: string, hosts: readonly AllowedHost[]): boolean {
  const parsed = parseUrl(url);
  if (!parsed) return false;
  return hosts.some(
    (host) => host.hostname === parsed.hostname && (host.port === null || host.port === parsed.port),
  );
}

/** Why a key may not be sent to `url` (one line, naming its host and how to allow it); null when it may. */
export function baseUrlRefusal(url: string, rules: Pick<TrustRules, 'hosts'>): string | null {
  if (isHostAllowed(url, rules.hosts)) return null;
  const parsed = parseUrl(url);
  // Only the host is shown: the text as given may hold credentials.
  if (!parsed) return 'not an http(s) URL (expected e.g. https://host/api/v1)';
  const shown = `host ${parsed.host}`;
  const froms = [...new Set(rules.hosts.map((host) => host.from))];
  const allowed = rules.hosts.length
    ? ` (allowed now: ${rules.hosts.map(showHost).join(', ')}, from ${froms.join(', ')})`
    : '';
  return (
    `${shown} is not allowed: a base URL not given on the command line must be on ` +
    `SELLER_API_BASE_URL's host or a host listed in ${API_HOSTS_VARIABLE} (a comma list, in the environment)${allowed}`
  );
}

/**
 * Why a webhook not given on this process's command line may not be told (one line, naming its
 * host, never its path or query, and how to allow it); null when it may.
 */
export function webhookRefusal(url: string, hosts: readonly AllowedHost[]): string | null {
  if (isHostAllowed(url, hosts)) return null;
  const parsed = parseUrl(url);
  if (!parsed) return 'not an http(s) URL';
  return (
    `host ${parsed.host} is not allowed: a webhook not given with --notify on this command line must be ` +
    `on a host listed in ${WEBHOOK_HOSTS_VARIABLE} (a comma list, in the environment)`
  );
}

/**
 * Why a store source not given on this command line may not be read (its credentials would go to
 * its host): one line naming the host, never a path, and how to allow it; null when it may.
 * `url` is the store's API origin (`https://shop.example.com/shop`, `http://127.0.0.1:4011`).
 */
export function storeHostRefusal(url: string, hosts: readonly AllowedHost[]): string | null {
  if (isHostAllowed(url, hosts)) return null;
  const parsed = parseUrl(url);
  if (!parsed) return 'not a store address';
  return (
    `host ${parsed.host} is not allowed: a store source not given on the command line must be on ` +
    `a host listed in ${STORE_HOSTS_VARIABLE} (a comma list, in the environment)`
  );
}

function showHost(host: AllowedHost): string {
  return host.port === null ? host.hostname : `${host.hostname}:${host.port}`;
}

/** hostname (lowercased, punycode, IPv4 and IPv6 in their one form, no trailing dot) and port (the scheme's default filled in). */
function parseUrl(text: string): { hostname: string; port: string; host: string } | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const hostname = url.hostname.replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { hostname, port, host: url.host };
}

function normalHostname(host: string): string | null {
  try {
    const hostname = new URL(`http://${host}/`).hostname.replace(/\.$/, '');
    return hostname === '' ? null : hostname;
  } catch {
    return null;
  }
}
