import { holdSecrets } from '../../secret-forms.js';
import { secretTextRefusal } from '../../secret-text.js';
import { SourceError } from '../source-error.js';

/**
 * A store's credentials, from the environment only: `SHOPIFY_ACCESS_TOKEN`, `WOO_CONSUMER_KEY` and
 * `WOO_CONSUMER_SECRET`, or their `_<NAME>` forms picked by `--source-credentials NAME`. A job file
 * may name the NAME, never hold a value: the variables' names are fixed here, so a NAME chooses
 * among the operator's store credentials and cannot make any other variable read. Messages name the
 * variable, never its value.
 */

/**
 * Capitals, digits and _, at most 32: a pasted token or key (`shpat_…`, `ck_…`, lower-case hex) is
 * never one, so it is refused without being echoed, and never becomes part of a variable's name
 * that a message shows.
 */
export const CREDENTIALS_NAME = /^[A-Z0-9_]{1,32}$/;

export const SHOPIFY_TOKEN_VARIABLE = 'SHOPIFY_ACCESS_TOKEN';
export const WOO_KEY_VARIABLE = 'WOO_CONSUMER_KEY';
export const WOO_SECRET_VARIABLE = 'WOO_CONSUMER_SECRET';

/** `--source-credentials NAME`: letters, digits and _ (the tail of a variable's name). */
export function checkCredentialsName(name: string): string {
  if (!CREDENTIALS_NAME.test(name))
    throw new SourceError(
      '--source-credentials takes a NAME of capitals, digits and _, at most 32 (SHOPIFY_ACCESS_TOKEN_<NAME>)',
    );
  return name;
}

/** True for a variable that holds a store's credential: one of the three, or its `_<NAME>` form. */
export function isStoreCredentialVariable(variable: string): boolean {
  return [SHOPIFY_TOKEN_VARIABLE, WOO_KEY_VARIABLE, WOO_SECRET_VARIABLE].some(
    (base) =>
      variable === base ||
      (variable.startsWith(`${base}_`) && CREDENTIALS_NAME.test(variable.slice(base.length + 1))),
  );
}

/** The variable that holds a credential, in its `_<NAME>` form when a NAME is given. */
export function credentialVariable(base: string, name: string | undefined): string {
  return name === undefined ? base : `${base}_${checkCredentialsName(name)}`;
}

function readVariable(env: NodeJS.ProcessEnv, variable: string, what: string): string {
  const value = env[variable]?.trim();
  if (!value)
    throw new SourceError(
      `${what}: ${variable} is not set (the store's credentials come from the environment)`,
    );
  // A pasted smart quote or line break: refused here, by name, rather than as a header Node refuses.
  const refusal = secretTextRefusal(variable, value, 'token or key');
  if (refusal) throw new SourceError(`${what}: ${refusal}`);
  return value;
}

export interface ShopifyCredentials {
  token: string;
  /** What an answer of the store must never be quoted with (secret-forms.ts). */
  secrets: readonly string[];
  /** The variable it came from, for the message of a rejected token. */
  variable: string;
}

export function readShopifyToken(
  env: NodeJS.ProcessEnv,
  name: string | undefined,
  what: string,
): ShopifyCredentials {
  const variable = credentialVariable(SHOPIFY_TOKEN_VARIABLE, name);
  const token = readVariable(env, variable, what);
  holdSecrets([token]);
  return { token, variable, secrets: [token] };
}

export interface WooCredentials {
  /** `Basic …`, ready for the Authorization header. */
  authorization: string;
  /** The variables they came from, for the message of rejected keys. */
  variables: string;
  /** What an answer of the store must never be quoted with: each key, and the header's value. */
  secrets: readonly string[];
}

export function readWooKeys(env: NodeJS.ProcessEnv, name: string | undefined, what: string): WooCredentials {
  const keyVariable = credentialVariable(WOO_KEY_VARIABLE, name);
  const secretVariable = credentialVariable(WOO_SECRET_VARIABLE, name);
  const key = readVariable(env, keyVariable, what);
  const secret = readVariable(env, secretVariable, what);
  const basic = basicValue(key, secret);
  // Held for every text the process keeps, not only this store's answers (secret-forms.ts).
  holdSecrets([key, secret, basic]);
  return {
    authorization: `Basic ${basic}`,
    variables: `${keyVariable} and ${secretVariable}`,
    secrets: [key, secret, basic],
  };
}

function basicValue(key: string, secret: string): string {
  return Buffer.from(`${key}:${secret}`).toString('base64');
}

/**
 * The credentials a store is read with, as the environment holds them (trimmed, as they are sent),
 * without refusing anything: the reader refuses a missing or bad one in its own words, and this
 * says what its messages must never hold, whatever became of the read. None for a NAME that is not
 * one (no variable is read then).
 */
export function credentialValues(
  platform: 'shopify' | 'woocommerce',
  env: NodeJS.ProcessEnv,
  name: string | undefined,
): string[] {
  if (name !== undefined && !CREDENTIALS_NAME.test(name)) return [];
  const read = (base: string) => env[name === undefined ? base : `${base}_${name}`]?.trim() ?? '';
  if (platform === 'shopify') return [read(SHOPIFY_TOKEN_VARIABLE)];
  const key = read(WOO_KEY_VARIABLE);
  const secret = read(WOO_SECRET_VARIABLE);
  return [key, secret, key && secret ? basicValue(key, secret) : ''];
}

/**
 * Every store credential the environment holds (each NAME's too) and each WooCommerce pair's
 * `Basic` value: what no text the tool keeps may quote, whatever it answered (secret-forms.ts).
 */
export function storeCredentialsIn(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (!value?.trim() || !isStoreCredentialVariable(variable)) continue;
    values.push(value.trim());
    if (variable === WOO_KEY_VARIABLE || variable.startsWith(`${WOO_KEY_VARIABLE}_`)) {
      const name = variable === WOO_KEY_VARIABLE ? undefined : variable.slice(WOO_KEY_VARIABLE.length + 1);
      values.push(...credentialValues('woocommerce', env, name).slice(2));
    }
  }
  return values.filter((value) => value !== '');
}
