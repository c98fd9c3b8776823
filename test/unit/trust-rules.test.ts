import { describe, expect, it } from 'vitest';
import { readApiConfig } from '../../src/config.js';
import {
  checkBaseUrlHost,
  checkKeyEnv,
  readStoreHosts,
  readTrustRules,
  readWebhookHosts,
} from '../../src/trust-config.js';
import {
  baseUrlRefusal,
  isHostAllowed,
  isKeyEnvAllowed,
  keyEnvRefusal,
  parseHostEntry,
  storeHostRefusal,
  webhookRefusal,
} from '../../src/trust-rules.js';
import { UsageError } from '../../src/usage-error.js';

const usageErrorOf = (call: () => unknown): UsageError => {
  try {
    call();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError, but nothing was thrown');
};

describe('the key variable rule', () => {
  it.each<[string, string[], boolean]>([
    ['SELLER_API_KEY', [], true],
    ['SELLER_API_KEY_SHOP_B', [], true],
    ['SELLER_API_KEY_', [], true],
    ['SELLER_API_KEY_b2', [], true],
    ['DB_PASSWORD', [], false],
    ['DB_PASSWORD', ['DB_PASSWORD'], true],
    ['SHOP_KEY', ['OTHER', 'SHOP_KEY'], true],
    ['AWS_SECRET_ACCESS_KEY', ['SHOP_KEY'], false],
    // Exact names: case matters in the environment, a prefix is not the variable.
    ['seller_api_key', [], false],
    ['SELLER_API_KEYS', [], false],
    ['XSELLER_API_KEY', [], false],
    ['SELLER_API_KEY2', [], false],
    ['shop_key', ['SHOP_KEY'], false],
    // Not variable names at all, even when listed.
    ['SELLER_API_KEY_A B', [], false],
    ['SELLER_API_KEY_A-B', ['SELLER_API_KEY_A-B'], false],
    ['', [''], false],
  ])('%j with CATALOG_SYNC_KEY_ENVS %j: %s', (name, listed, allowed) => {
    expect(isKeyEnvAllowed(name, listed)).toBe(allowed);
    expect(keyEnvRefusal(name, { keyEnvs: listed }) === null).toBe(allowed);
  });

  it('says how to allow a refused variable, naming it', () => {
    const refusal = keyEnvRefusal('DB_PASSWORD', { keyEnvs: [] });
    expect(refusal).toContain('DB_PASSWORD');
    expect(refusal).toContain('SELLER_API_KEY_<NAME>');
    expect(refusal).toContain('CATALOG_SYNC_KEY_ENVS');
  });

  it('shows a name read from Redis short and without control characters', () => {
    const refusal = keyEnvRefusal(`X\x1b]0;evil\x07${'A'.repeat(500)}`, { keyEnvs: [] }) as string;
    expect(refusal).toContain('X\\x1b]0;evil\\x07');
    expect(refusal).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(refusal.length).toBeLessThan(400);
  });
});

describe('CATALOG_SYNC_API_HOSTS entries', () => {
  it.each<[string, { hostname: string; port: string | null } | null]>([
    ['api.example.com', { hostname: 'api.example.com', port: null }],
    ['API.Example.COM.', { hostname: 'api.example.com', port: null }],
    ['api.example.com:8443', { hostname: 'api.example.com', port: '8443' }],
    ['127.0.0.1:4010', { hostname: '127.0.0.1', port: '4010' }],
    ['[::1]', { hostname: '[::1]', port: null }],
    ['[0:0:0:0:0:0:0:1]:4010', { hostname: '[::1]', port: '4010' }],
    [' spaced.example.com ', { hostname: 'spaced.example.com', port: null }],
    ['https://api.example.com', null],
    ['api.example.com/api/v1', null],
    ['user@api.example.com', null],
    ['api.example.com:99999', null],
    ['api.example.com:', null],
    ['a b', null],
    ['', null],
  ])('%j → %j', (entry, expected) => {
    const host = parseHostEntry(entry, 'CATALOG_SYNC_API_HOSTS');
    expect(host === null ? null : { hostname: host.hostname, port: host.port }).toEqual(expected);
  });
});

describe('the host rule (a base URL not from the command line)', () => {
  const rules = readTrustRules({
    SELLER_API_BASE_URL: 'https://api.example.com/api/v1',
    CATALOG_SYNC_API_HOSTS: 'eu.example.com, staging.example.com:8443, 127.0.0.1',
  });

  it.each<[string, boolean]>([
    ['https://api.example.com/api/v1', true],
    ['https://API.EXAMPLE.com./api/v1', true],
    ['https://api.example.com:443/api/v1', true],
    // SELLER_API_BASE_URL's host is host and port: another service on the same machine is another host.
    ['https://api.example.com:8443/api/v1', false],
    ['http://api.example.com/api/v1', false],
    ['https://eu.example.com/api/v1', true],
    ['https://eu.example.com:9000/api/v1', true],
    ['https://staging.example.com:8443/api/v1', true],
    ['https://staging.example.com/api/v1', false],
    ['http://127.0.0.1:4010/api/v1', true],
    ['http://127.1:4010/api/v1', true],
    ['https://evil.example.net/api/v1', false],
    ['https://api.example.com.evil.example.net/api/v1', false],
    ['https://api.example.com@evil.example.net/api/v1', false],
    ['http://localhost:4010/api/v1', false],
    ['ftp://api.example.com/api/v1', false],
    ['not a url', false],
  ])('%s: %s', (url, allowed) => {
    expect(isHostAllowed(url, rules.hosts)).toBe(allowed);
    expect(baseUrlRefusal(url, rules) === null).toBe(allowed);
  });

  it('allows no host at all when neither variable is set', () => {
    expect(isHostAllowed('https://api.example.com/api/v1', readTrustRules({}).hosts)).toBe(false);
  });

  it('trusts the base URLs of the command line it is given, exactly', () => {
    const own = readTrustRules({}, ['http://127.0.0.1:4010/api/v1']);
    expect(isHostAllowed('http://127.0.0.1:4010/api/v1', own.hosts)).toBe(true);
    expect(isHostAllowed('http://127.0.0.1:4011/api/v1', own.hosts)).toBe(false);
  });

  it('names the host and how to allow it, never the credentials of the URL', () => {
    const refusal = baseUrlRefusal('https://bob:pa55@evil.example.net/api/v1?token=s3cret', rules) as string;
    expect(refusal).toContain('evil.example.net');
    expect(refusal).toContain('CATALOG_SYNC_API_HOSTS');
    expect(refusal).not.toMatch(/pa55|s3cret|bob/);
  });
});

describe('readTrustRules, checkKeyEnv and checkBaseUrlHost (one line, exit 2)', () => {
  it.each<[string, Record<string, string>, string]>([
    [
      'a listed name that is no variable',
      { CATALOG_SYNC_KEY_ENVS: 'SHOP_KEY, not a name' },
      'CATALOG_SYNC_KEY_ENVS',
    ],
    [
      'a listed host that is a URL',
      { CATALOG_SYNC_API_HOSTS: 'https://api.example.com' },
      'CATALOG_SYNC_API_HOSTS',
    ],
  ])('refuses %s', (_case, env, names) => {
    const error = usageErrorOf(() => readTrustRules(env));
    expect(error.message).toContain(names);
    expect(error.exitCode).toBe(2);
  });

  it('reads comma lists, blanks and spaces ignored', () => {
    const rules = readTrustRules({
      CATALOG_SYNC_KEY_ENVS: ' SHOP_KEY,,OTHER_KEY , ',
      CATALOG_SYNC_API_HOSTS: '',
    });
    expect(rules.keyEnvs).toEqual(['SHOP_KEY', 'OTHER_KEY']);
    expect(rules.hosts).toEqual([]);
  });

  it('refuses a key variable naming the variable and the origin, never its value', () => {
    const env = { DB_PASSWORD: 'hunter2', SELLER_API_BASE_URL: 'https://api.example.com/api/v1' };
    const error = usageErrorOf(() => checkKeyEnv('DB_PASSWORD', readTrustRules(env), 'nightly.yml: keyEnv'));
    expect(error.message).toMatch(/^nightly\.yml: keyEnv: DB_PASSWORD is not a key variable/);
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('\n');
    const flag = usageErrorOf(() => readApiConfig(env, { keyEnv: 'DB_PASSWORD' }));
    expect(flag.message).toMatch(/^--key-env: DB_PASSWORD is not a key variable/);
    expect(flag.message).not.toContain('hunter2');
  });

  it('takes a variable the operator listed', () => {
    const env = {
      SHOP_KEY: 'sk_shop',
      CATALOG_SYNC_KEY_ENVS: 'SHOP_KEY',
      SELLER_API_BASE_URL: 'https://api.example.com/api/v1',
    };
    expect(readApiConfig(env, { keyEnv: 'SHOP_KEY' })).toMatchObject({
      keyEnv: 'SHOP_KEY',
      apiKey: 'sk_shop',
    });
  });

  it('refuses a job file base URL on another host, naming the file', () => {
    const rules = readTrustRules({ SELLER_API_BASE_URL: 'https://api.example.com/api/v1' });
    const error = usageErrorOf(() =>
      checkBaseUrlHost('https://evil.example.net/api/v1', rules, 'nightly.yml: baseUrl'),
    );
    expect(error.message).toMatch(/^nightly\.yml: baseUrl: host evil\.example\.net is not allowed/);
    expect(() => checkBaseUrlHost('https://api.example.com/api/v1', rules, 'x')).not.toThrow();
  });
});

describe('webhook hosts (CATALOG_SYNC_WEBHOOK_HOSTS and the command line)', () => {
  const forged = 'http://127.0.0.1:8080/internal/admin/delete-all?confirm=yes';

  it('allows no webhook read from Redis when the environment lists none', () => {
    const refusal = webhookRefusal(forged, readWebhookHosts({}));
    expect(refusal).toBe(
      'host 127.0.0.1:8080 is not allowed: a webhook not given with --notify on this command line must be ' +
        'on a host listed in CATALOG_SYNC_WEBHOOK_HOSTS (a comma list, in the environment)',
    );
    expect(refusal).not.toMatch(/delete-all|confirm/);
  });

  it.each<[string, string, boolean]>([
    ['hooks.slack.com', 'https://hooks.slack.com/services/T0/B0/x', true],
    ['hooks.slack.com', 'https://HOOKS.slack.com./services/T0/B0/x', true],
    ['hooks.slack.com', 'https://evil.example/services', false],
    ['127.0.0.1:9000', 'http://127.0.0.1:9000/hook', true],
    ['127.0.0.1:9000', 'http://127.0.0.1:8080/hook', false],
    ['[::1]', 'http://[::1]:8080/hook', true],
  ])('%s allows %s: %s', (listed, url, allowed) => {
    const hosts = readWebhookHosts({ CATALOG_SYNC_WEBHOOK_HOSTS: listed });
    expect(webhookRefusal(url, hosts) === null).toBe(allowed);
  });

  it("trusts the host (and port) of this process's own --notify, not another's", () => {
    const hosts = readWebhookHosts({}, ['http://127.0.0.1:8080/hooks/mine']);
    expect(webhookRefusal(forged, hosts)).toBeNull();
    expect(webhookRefusal('http://127.0.0.1:6379/', hosts)).toContain('is not allowed');
  });

  it('refuses a list that says more than hosts: one line naming the variable', () => {
    const error = usageErrorOf(() =>
      readWebhookHosts({ CATALOG_SYNC_WEBHOOK_HOSTS: 'https://hooks.slack.com/x' }),
    );
    expect(error.message).toBe(
      'CATALOG_SYNC_WEBHOOK_HOSTS lists hosts (host or host:port, comma-separated), and "https://hooks.slack.com/x" is none',
    );
  });
});

describe("store hosts (CATALOG_SYNC_STORE_HOSTS: a job file's store source)", () => {
  it.each<[string | undefined, string, boolean]>([
    [undefined, 'https://my-shop.myshopify.com/', false],
    ['my-shop.myshopify.com', 'https://my-shop.myshopify.com/', true],
    ['my-shop.myshopify.com', 'https://other.myshopify.com/', false],
    ['shop.example.com', 'https://shop.example.com/shop', true],
    ['127.0.0.1:4011', 'http://127.0.0.1:4011/', true],
    ['127.0.0.1:4011', 'http://127.0.0.1:4012/', false],
  ])('%s allows %s: %s', (listed, url, allowed) => {
    const hosts = readStoreHosts(listed === undefined ? {} : { CATALOG_SYNC_STORE_HOSTS: listed });
    expect(storeHostRefusal(url, hosts) === null).toBe(allowed);
  });

  it('says the host, never the path, and the variable; a list that says more than hosts is refused', () => {
    expect(storeHostRefusal('https://shop.example.com/private-folder', [])).toBe(
      'host shop.example.com is not allowed: a store source not given on the command line must be on ' +
        'a host listed in CATALOG_SYNC_STORE_HOSTS (a comma list, in the environment)',
    );
    expect(usageErrorOf(() => readStoreHosts({ CATALOG_SYNC_STORE_HOSTS: 'shopify://x' })).message).toContain(
      'CATALOG_SYNC_STORE_HOSTS lists hosts',
    );
  });
});
