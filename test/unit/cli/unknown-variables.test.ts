import { describe, expect, it } from 'vitest';
import { unknownVariableLines } from '../../../src/cli/unknown-variables.js';
import { runCli } from '../../integration/support/cli.js';

/**
 * A mistyped CATALOG_SYNC_* variable was taken for unset without a word: `CATALOG_SYNC_PREFX=staging`
 * had `status` look under the default prefix and say `no run yet`.
 */
describe('a CATALOG_SYNC_ variable this version does not know', () => {
  it('is named with the known name it is nearest to, its value never', () => {
    expect(unknownVariableLines({ CATALOG_SYNC_PREFX: 'sk_live_secret', CATALOG_SYNC_PREFIX: 'a' })).toEqual([
      'CATALOG_SYNC_PREFX is not a variable catalog-sync knows, and is ignored: did you mean CATALOG_SYNC_PREFIX?',
    ]);
    expect(unknownVariableLines({ CATALOG_SYNC_LOCK_MSS: '3' })).toEqual([
      'CATALOG_SYNC_LOCK_MSS is not a variable catalog-sync knows, and is ignored: did you mean CATALOG_SYNC_LOCK_MS?',
    ]);
  });

  it('near none, it says where the known ones are listed', () => {
    expect(unknownVariableLines({ CATALOG_SYNC_FUTURE_THING: '1' })).toEqual([
      'CATALOG_SYNC_FUTURE_THING is not a variable catalog-sync knows, and is ignored (a newer version may know it; docs/options.md, Environment, lists those this one reads)',
    ]);
  });

  it('says nothing of the known ones, other variables, or a key variable CATALOG_SYNC_KEY_ENVS lists', () => {
    const env = {
      CATALOG_SYNC_PREFIX: 'a',
      CATALOG_SYNC_LOCK_MS: '8000',
      CATALOG_SYNC_DATA_DIR: '/srv',
      CATALOG_SYNC_REAL_FIXTURES: '/fixtures',
      CATALOG_SYNC_KEY_ENVS: 'CATALOG_SYNC_SHOP_A_KEY, CATALOG_SYNC_SHOP_B_KEY',
      CATALOG_SYNC_SHOP_A_KEY: 'k',
      CATALOG_SYNC_SHOP_B_KEY: 'k',
      REDIS_URL: 'redis://127.0.0.1:6379',
      CATALOG_PREFIX: 'x',
    };
    expect(unknownVariableLines(env)).toEqual([]);
  });

  it('is one warning line on stderr, and the command goes on (a newer version’s variable must not break it)', async () => {
    const result = await runCli(['sandbox', '--help'], { CATALOG_SYNC_PREFX: 'staging' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');

    const told = await runCli(['products', 'export', '--base-url', 'http://127.0.0.1:1/api/v1'], {
      LOG_FORMAT: 'pretty',
      CATALOG_SYNC_PREFX: 'staging',
      CATALOG_SYNC_RETRIES: '0',
      SELLER_API_KEY: 'sk_test_x',
    });
    expect(told.stderr.split('\n')[0]).toBe(
      'catalog-sync: warning: CATALOG_SYNC_PREFX is not a variable catalog-sync knows, and is ignored: did you mean CATALOG_SYNC_PREFIX?',
    );
    // The command itself went on: its own line follows (nothing answers on port 1).
    expect(told.stderr.split('\n')[1]).toMatch(
      /^catalog-sync: cannot reach http:\/\/127\.0\.0\.1:1\/api\/v1/,
    );
    expect(told.stderr).not.toContain('staging');
  });

  it('is one JSON log line (level warn) when the logs are JSON, as every other warning of the tool', async () => {
    const told = await runCli(['products', 'export', '--base-url', 'http://127.0.0.1:1/api/v1'], {
      LOG_FORMAT: 'json',
      CATALOG_SYNC_PREFX: 'staging',
      CATALOG_SYNC_RETRIES: '0',
      SELLER_API_KEY: 'sk_test_x',
    });
    const [first, second] = told.stderr.split('\n');
    expect(JSON.parse(first ?? '')).toMatchObject({
      level: 40,
      msg: 'CATALOG_SYNC_PREFX is not a variable catalog-sync knows, and is ignored: did you mean CATALOG_SYNC_PREFIX?',
    });
    expect(second).toMatch(/^catalog-sync: cannot reach http:\/\/127\.0\.0\.1:1\/api\/v1/);
    expect(told.stderr).not.toContain('staging');
  });

  it('is JSON too with LOG_FORMAT unset off a terminal (a cron log), where the logs are JSON', async () => {
    const told = await runCli(['products', 'export', '--base-url', 'http://127.0.0.1:1/api/v1'], {
      CATALOG_SYNC_PRFEIX: 'staging',
      CATALOG_SYNC_RETRIES: '0',
      SELLER_API_KEY: 'sk_test_x',
    });
    expect(JSON.parse(told.stderr.split('\n')[0] ?? '')).toMatchObject({ level: 40 });
  });
});
