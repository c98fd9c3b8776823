import { describe, expect, it } from 'vitest';
import {
  checkDailyReset,
  parseConcurrency,
  parseDailyBudget,
  parseFieldList,
  parseTaxRate,
} from '../../../src/cli/option-values.js';
import { readApiConfig, readCommonConfig } from '../../../src/config.js';
import { databaseIndexOf } from '../../../src/redis/redis-url.js';
import { UsageError } from '../../../src/usage-error.js';

/** The UsageError `run` throws, or a failure naming what did not throw. */
const usageErrorOf = (call: () => unknown): UsageError => {
  try {
    call();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError, but nothing was thrown');
};

const expectOneLineUsageError = (call: () => unknown, names: string) => {
  const error = usageErrorOf(call);
  expect(error.exitCode).toBe(2);
  expect(error.message).toContain(names);
  expect(error.message).not.toContain('\n');
  return error;
};

describe('readCommonConfig', () => {
  it('falls back to the documented defaults on an empty environment', () => {
    expect(readCommonConfig({})).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redisUrlGiven: false,
      redisUrlFrom: null,
      redisCluster: null,
      prefix: 'catalog-sync',
      logLevel: 'info',
      lockDurationMs: 8_000,
      stallCheckMs: 4_000,
      retryBaseMs: 500,
      retries: 4,
      redisDeadlineMs: 20_000,
      closeDeadlineMs: 10_000,
      probeFirstMs: 5_000,
      producingBeatMs: 10_000,
    });
  });

  it('reads each variable', () => {
    const config = readCommonConfig({
      REDIS_URL: 'redis://redis.internal:6380/2',
      CATALOG_SYNC_PREFIX: 'cs-{staging}',
      LOG_LEVEL: 'WARN',
      CATALOG_SYNC_LOCK_MS: '60000',
      CATALOG_SYNC_STALL_CHECK_MS: '7000',
      CATALOG_SYNC_RETRY_BASE_MS: '10',
      CATALOG_SYNC_RETRIES: '0',
      CATALOG_SYNC_REDIS_DEADLINE_MS: '2000',
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '500',
      CATALOG_SYNC_PROBE_MS: '250',
      CATALOG_SYNC_PRODUCING_BEAT_MS: '100',
    });
    expect(config).toEqual({
      redisUrl: 'redis://redis.internal:6380/2',
      redisUrlGiven: true,
      redisUrlFrom: 'REDIS_URL',
      redisCluster: null,
      prefix: 'cs-{staging}',
      logLevel: 'warn',
      lockDurationMs: 60_000,
      stallCheckMs: 7_000,
      retryBaseMs: 10,
      retries: 0,
      redisDeadlineMs: 2000,
      closeDeadlineMs: 500,
      probeFirstMs: 250,
      producingBeatMs: 100,
    });
  });

  it('lets the --redis-url flag override REDIS_URL', () => {
    const config = readCommonConfig({ REDIS_URL: 'redis://a:6379' }, { redisUrl: 'redis://b:6379' });
    expect(config).toMatchObject({
      redisUrl: 'redis://b:6379',
      redisUrlGiven: true,
      redisUrlFrom: '--redis-url',
    });
  });

  it('checks for stalled jobs every half lock unless CATALOG_SYNC_STALL_CHECK_MS says otherwise', () => {
    expect(readCommonConfig({ CATALOG_SYNC_LOCK_MS: '2000' }).stallCheckMs).toBe(1000);
  });

  it('treats an empty number variable as unset', () => {
    expect(readCommonConfig({ CATALOG_SYNC_RETRIES: '' }).retries).toBe(4);
  });

  it.each<[string, Record<string, string>]>([
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['CATALOG_SYNC_PREFIX', { CATALOG_SYNC_PREFIX: 'has space' }],
    ['CATALOG_SYNC_PREFIX', { CATALOG_SYNC_PREFIX: 'a:b' }],
    ['CATALOG_SYNC_LOCK_MS', { CATALOG_SYNC_LOCK_MS: '0' }],
    ['CATALOG_SYNC_LOCK_MS', { CATALOG_SYNC_LOCK_MS: '1.5' }],
    ['CATALOG_SYNC_STALL_CHECK_MS', { CATALOG_SYNC_STALL_CHECK_MS: '0' }],
    ['CATALOG_SYNC_RETRY_BASE_MS', { CATALOG_SYNC_RETRY_BASE_MS: 'fast' }],
    ['CATALOG_SYNC_RETRIES', { CATALOG_SYNC_RETRIES: '-1' }],
    ['CATALOG_SYNC_PRODUCING_BEAT_MS', { CATALOG_SYNC_PRODUCING_BEAT_MS: '0' }],
  ])('refuses a bad %s in one line naming it', (name, env) => {
    const error = expectOneLineUsageError(() => readCommonConfig(env), name);
    expect(error.message).toContain(`"${Object.values(env)[0]}"`);
  });
});

describe('readApiConfig', () => {
  const env = { SELLER_API_BASE_URL: 'https://api.example.com/api/v1/', SELLER_API_KEY: 'sk_live_SECRET' };

  it('reads the base URL (without its trailing slash) and the key', () => {
    expect(readApiConfig(env, {})).toEqual({
      baseUrl: 'https://api.example.com/api/v1',
      keyEnv: 'SELLER_API_KEY',
      apiKey: 'sk_live_SECRET',
      allowInsecure: false,
    });
  });

  it('reads the key from the variable --key-env names', () => {
    const config = readApiConfig(
      { ...env, SELLER_API_KEY_SHOP_B: ' sk_live_B \n' },
      { keyEnv: 'SELLER_API_KEY_SHOP_B' },
    );
    expect(config).toMatchObject({ keyEnv: 'SELLER_API_KEY_SHOP_B', apiKey: 'sk_live_B' });
  });

  it('lets --base-url override SELLER_API_BASE_URL', () => {
    const config = readApiConfig(env, { baseUrl: 'http://127.0.0.1:4010/api/v1' });
    expect(config.baseUrl).toBe('http://127.0.0.1:4010/api/v1');
  });

  it('accepts http:// to a host other than loopback only when insecure is allowed', () => {
    const insecure = { ...env, SELLER_API_BASE_URL: 'http://api.example.com/api/v1' };
    expectOneLineUsageError(() => readApiConfig(insecure, {}), 'http:// is allowed only to a loopback host');
    expect(readApiConfig(insecure, { allowInsecure: true })).toMatchObject({
      baseUrl: 'http://api.example.com/api/v1',
      allowInsecure: true,
    });
  });

  it.each<[string, Record<string, string>, { keyEnv?: string }, string]>([
    ['no base URL', { SELLER_API_KEY: 'k' }, {}, 'SELLER_API_BASE_URL is not set'],
    [
      'a base URL not ending in /api/v1',
      { ...env, SELLER_API_BASE_URL: 'https://api.example.com' },
      {},
      'https://api.example.com',
    ],
    ['no key', { SELLER_API_BASE_URL: env.SELLER_API_BASE_URL }, {}, 'SELLER_API_KEY is not set'],
    ['a blank key', { ...env, SELLER_API_KEY: '   ' }, {}, 'SELLER_API_KEY is not set'],
    [
      'no value in the --key-env variable',
      env,
      { keyEnv: 'SELLER_API_KEY_SHOP_B' },
      'SELLER_API_KEY_SHOP_B is not set',
    ],
    ['a --key-env that is no variable name', env, { keyEnv: 'shop-b key' }, '--key-env'],
  ])('refuses %s in one line naming it', (_case, given, flags, names) => {
    expectOneLineUsageError(() => readApiConfig(given, flags), names);
  });

  it('says where a missing key may come from, and what a --keys-file given holds instead', () => {
    const base = { SELLER_API_BASE_URL: env.SELLER_API_BASE_URL };
    expect(usageErrorOf(() => readApiConfig(base, {})).message).toBe(
      "SELLER_API_KEY is not set: it must hold the seller's API key (set it, give it in --keys-file, or name another variable with --key-env)",
    );
    const one = { file: 'keys.env', names: ['SELLER_API_KEY_SHOP'] };
    expect(usageErrorOf(() => readApiConfig(base, {}, false, one)).message).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds SELLER_API_KEY_SHOP only: add --key-env SELLER_API_KEY_SHOP',
    );
    const two = { file: 'keys.env', names: ['SELLER_API_KEY_A', 'SELLER_API_KEY_B'] };
    expect(usageErrorOf(() => readApiConfig(base, { keyEnv: 'SELLER_API_KEY_C' }, false, two)).message).toBe(
      "SELLER_API_KEY_C is not set, and --keys-file keys.env does not hold it (it holds SELLER_API_KEY_A, SELLER_API_KEY_B): add this seller's key to it as SELLER_API_KEY_C=KEY",
    );
    const none = { file: 'keys.env', names: [] };
    expect(usageErrorOf(() => readApiConfig(base, {}, false, none)).message).toBe(
      'SELLER_API_KEY is not set, and --keys-file keys.env holds no key: add a line SELLER_API_KEY=KEY to it',
    );
  });

  it('never puts the key or the URL credentials in its errors', () => {
    const leaky = {
      SELLER_API_BASE_URL: 'https://bob:pa55@api.example.com/api/v1',
      SELLER_API_KEY: 'sk_live_SECRET',
    };
    const error = usageErrorOf(() => readApiConfig(leaky, {}));
    expect(error.message).not.toMatch(/pa55|sk_live_SECRET/);
  });
});

describe('parseConcurrency', () => {
  it.each([
    ['1', 1],
    ['8', 8],
    ['256', 256],
  ])('reads %s', (text, n) => {
    expect(parseConcurrency(text)).toBe(n);
  });

  it.each(['0', '257', '-1', '2.5', 'many', ''])('refuses "%s" naming --concurrency', (text) => {
    expectOneLineUsageError(() => parseConcurrency(text), '--concurrency');
  });
});

describe('parseDailyBudget', () => {
  it.each([
    ['1', 1],
    ['10000', 10_000],
  ])('reads %s', (text, n) => {
    expect(parseDailyBudget(text)).toBe(n);
  });

  it.each(['0', '-5', '1.5', 'lots', ''])('refuses "%s" naming --daily-budget', (text) => {
    expectOneLineUsageError(() => parseDailyBudget(text), '--daily-budget');
  });
});

describe('checkDailyReset', () => {
  it.each([
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    [' 07:30 ', '07:30'],
    ['7:30', '7:30'],
  ])('accepts %j as %j', (text, kept) => {
    expect(checkDailyReset(text)).toBe(kept);
  });

  it.each(['24:00', '12:60', '1230', '12:3', 'noon', ''])('refuses "%s" naming --daily-reset', (text) => {
    expectOneLineUsageError(() => checkDailyReset(text), '--daily-reset');
  });
});

describe('parseFieldList', () => {
  it.each<[string, string[]]>([
    ['name,price', ['name', 'price']],
    [' name , price ,sku', ['name', 'price', 'sku']],
    ['name,,price,', ['name', 'price']],
  ])('reads %j', (text, fields) => {
    expect(parseFieldList(text)).toEqual(fields);
  });

  it.each(['', ' , ,'])('refuses %j naming --fields', (text) => {
    expectOneLineUsageError(() => parseFieldList(text), '--fields');
  });
});

describe('parseTaxRate', () => {
  it.each([
    ['20%', '20'],
    ['20', '20'],
    [' 7.7 % ', '7.7'],
    ['7,7%', '7.7'],
    ['0', '0'],
  ])('reads %j as %j', (text, rate) => {
    expect(parseTaxRate(text)).toBe(rate);
  });

  it.each(['', 'twenty', '-5%', '120%', '20%%'])('refuses %j naming --tax-rate', (text) => {
    expectOneLineUsageError(() => parseTaxRate(text), '--tax-rate');
  });

  it.each(['0.2', '0,2', '.07'])('refuses %j: below 1 without a %, it may be a fraction', (text) => {
    expect(() => parseTaxRate(text)).toThrow(
      `--tax-rate ${text}: a number below 1 needs its % sign, as it may be a fraction: write ${text.replace(',', '.')}% or ${Math.round(Number(text.replace(',', '.')) * 100)}%`,
    );
    expect(parseTaxRate(`${text}%`)).toBe(text.replace(',', '.').replace(/^\./, '0.'));
  });
});

describe('REDIS_CLUSTER', () => {
  it('lists the nodes, and says so in place of REDIS_URL', () => {
    const config = readCommonConfig({ REDIS_CLUSTER: '127.0.0.1:7000, redis-b:7001,[::1]:7002' });
    expect(config.redisCluster).toEqual({
      nodes: ['127.0.0.1:7000', 'redis-b:7001', '[::1]:7002'],
      tls: false,
    });
    expect(config.redisUrl).toBe('redis-cluster://127.0.0.1:7000,redis-b:7001,[::1]:7002');
    expect(config.redisUrlGiven).toBe(true);
    expect(readCommonConfig({ REDIS_CLUSTER: '' }).redisCluster).toBeNull();
  });

  it.each(['127.0.0.1', 'redis://127.0.0.1', '127.0.0.1:7000,,127.0.0.1:7001', 'host:0', 'host:70000'])(
    'refuses %s in one line naming REDIS_CLUSTER',
    (value) => {
      expect(() => readCommonConfig({ REDIS_CLUSTER: value })).toThrow(
        /^REDIS_CLUSTER lists a cluster's nodes/,
      );
    },
  );

  it("takes REDIS_URL's scheme and credentials before the nodes, for every node, and never shows the password", () => {
    const read = (value: string) => readCommonConfig({ REDIS_CLUSTER: value });
    expect(read('rediss://:s3cr%40t,x@127.0.0.1:7000,127.0.0.1:7001')).toMatchObject({
      redisCluster: { nodes: ['127.0.0.1:7000', '127.0.0.1:7001'], tls: true, password: 's3cr@t,x' },
      redisUrl: 'rediss-cluster://:***@127.0.0.1:7000,127.0.0.1:7001',
    });
    expect(read('redis://app:p@ss@h:7000')).toMatchObject({
      redisCluster: { nodes: ['h:7000'], tls: false, username: 'app', password: 'p@ss' },
      redisUrl: 'redis-cluster://app:***@h:7000',
    });
    expect(read('REDISS://h:7000').redisCluster).toEqual({ nodes: ['h:7000'], tls: true });
    expect(read('redis://h:7000').redisUrl).toBe('redis-cluster://h:7000');
  });

  it.each([
    ['http://:s3cret@h:7000', /^REDIS_CLUSTER starts with redis:\/\/ or rediss:\/\/ .*, not http:\/\/$/],
    ['redis://app@h:7000', /^REDIS_CLUSTER names a user without a password/],
    ['redis://app:@h:7000', /^REDIS_CLUSTER gives an empty password/],
    ['redis://:s3cret%zz@h:7000', /^REDIS_CLUSTER's user or password is not URL-encoded right/],
    ['redis://:s3cret@h', /^REDIS_CLUSTER lists a cluster's nodes as host:port,host:port, and "h" is none$/],
  ])('refuses %s in one line that holds no password', (value, message) => {
    let said = '';
    try {
      readCommonConfig({ REDIS_CLUSTER: value });
    } catch (error) {
      said = (error as Error).message;
    }
    expect(said).toMatch(message);
    expect(said).not.toContain('s3cret');
    expect(said.split('\n')).toHaveLength(1);
  });

  it("a user without a password: the form to write keeps REDIS_CLUSTER's scheme (TLS)", () => {
    expect(() => readCommonConfig({ REDIS_CLUSTER: 'rediss://fleet@h:7000,h:7001' })).toThrow(
      'REDIS_CLUSTER names a user without a password: write rediss://USER:PASSWORD@host:port,… or rediss://:PASSWORD@host:port,…',
    );
    expect(() => readCommonConfig({ REDIS_CLUSTER: 'redis://fleet@h:7000' })).toThrow(
      'REDIS_CLUSTER names a user without a password: write redis://USER:PASSWORD@host:port,… or redis://:PASSWORD@host:port,…',
    );
  });

  it('refuses a prefix with braces: the tool tags its keys itself', () => {
    expect(() => readCommonConfig({ REDIS_CLUSTER: 'h:7000', CATALOG_SYNC_PREFIX: '{cs}' })).toThrow(
      /CATALOG_SYNC_PREFIX holds \{ \}/,
    );
  });
});

describe('a --redis-url flag with REDIS_CLUSTER set', () => {
  it('goes before it, as flags go before variables', () => {
    const config = readCommonConfig({ REDIS_CLUSTER: 'h:7000' }, { redisUrl: 'redis://other:6379' });
    expect(config).toMatchObject({ redisCluster: null, redisUrl: 'redis://other:6379' });
  });
});

describe("REDIS_URL's database index", () => {
  it('takes a database named in the path, or none (database 0)', () => {
    expect(databaseIndexOf('redis://h:6379/3', 'REDIS_URL')).toBe(3);
    expect(databaseIndexOf('redis://h:6379/', 'REDIS_URL')).toBe(0);
    expect(databaseIndexOf('rediss://:pw@h:6379', 'REDIS_URL')).toBe(0);
    expect(databaseIndexOf('redis://h:6379?db=2', 'REDIS_URL')).toBe(2);
    expect(databaseIndexOf('redis://h:6379/2?db=2', 'REDIS_URL')).toBe(2);
    expect(() => readCommonConfig({ REDIS_URL: 'redis://h:6379/15' })).not.toThrow();
  });

  it.each([
    [
      'redis://:s3cret@h:6379/abc',
      /^REDIS_URL names database "abc": a database index is a whole number \(0, 1, …\)$/,
    ],
    ['redis://:s3cret@h:6379/1/2', /^REDIS_URL names database "1\/2": a database index is a whole number/],
    ['redis://:s3cret@h:6379/-1', /^REDIS_URL names database "-1": a database index is a whole number/],
    ['redis://:s3cret@h:6379/1?db=2', /^REDIS_URL names database 1 in its path and 2 in \?db=: name one$/],
  ])('refuses %s in one line that holds no password', (value, message) => {
    let said = '';
    try {
      readCommonConfig({ REDIS_URL: value });
    } catch (error) {
      said = (error as Error).message;
    }
    expect(said).toMatch(message);
    expect(said).not.toContain('s3cret');
  });

  it.each([
    'redis:/:s3cret@127.0.0.1:47201',
    'redis:/127.0.0.1:47201',
    'redis::s3cret@127.0.0.1:6379',
    'redis:///127.0.0.1:6379',
    'rediss:/:s3cret@h:6379/1',
  ])('refuses %s, a slash short or too many, as malformed, not as a database name', (value) => {
    let said = '';
    try {
      readCommonConfig({ REDIS_URL: value });
    } catch (error) {
      said = (error as Error).message;
    }
    expect(said).toBe(
      'REDIS_URL is not a valid Redis URL: it must look like redis://host:6379 (rediss:// for TLS)',
    );
  });

  it('names --redis-url when the flag gave it', () => {
    expect(() => readCommonConfig({}, { redisUrl: 'redis://h/x' })).toThrow(
      /^--redis-url names database "x"/,
    );
  });

  it('a Redis Cluster has only database 0: REDIS_CLUSTER naming another is refused, and so is REDIS_URL beside it', () => {
    expect(() => readCommonConfig({ REDIS_CLUSTER: 'h:7000/3,h:7001' })).toThrow(
      /^REDIS_CLUSTER names database 3 \("h:7000\/3"\): a Redis Cluster has only database 0; drop the \/3$/,
    );
    expect(() => readCommonConfig({ REDIS_CLUSTER: 'h:7000', REDIS_URL: 'redis://h:6379/2' })).toThrow(
      /^REDIS_URL names database 2, but REDIS_CLUSTER is set, and a Redis Cluster has only database 0: unset REDIS_URL \(REDIS_CLUSTER is used instead\), or unset REDIS_CLUSTER$/,
    );
    expect(
      readCommonConfig({ REDIS_CLUSTER: 'h:7000/0', REDIS_URL: 'redis://h:6379/0' }).redisCluster,
    ).toEqual({
      nodes: ['h:7000'],
      tls: false,
    });
  });
});
