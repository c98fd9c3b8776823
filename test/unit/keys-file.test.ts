import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyKeysFile, mergeKeys, parseKeysFile, readKeysFile } from '../../src/keys-file.js';
import { projectRoot } from '../../src/project-root.js';
import { UsageError } from '../../src/usage-error.js';

const SECRET = 'sk_live_Secret123';

async function refusalOf(call: () => unknown): Promise<UsageError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError, but nothing was thrown');
}

describe('the keys file syntax', () => {
  it('reads NAME=KEY lines, skipping blank lines and # comments, trimming around the key', () => {
    const text = `# the agency's sellers\n\nSELLER_API_KEY_ACME = ${SECRET}  \r\nSHOP_B=sk_b=with=equals\n   # indented comment\n`;
    const keys = parseKeysFile(text, 'keys.env', ['SHOP_B']);
    expect([...keys]).toEqual([
      ['SELLER_API_KEY_ACME', SECRET],
      ['SHOP_B', 'sk_b=with=equals'],
    ]);
  });

  it('reads a key wholly in matching double or single quotes without them, as env files have it', () => {
    const text = `SELLER_API_KEY_A="${SECRET}"\nSELLER_API_KEY_B = '${SECRET}' \nSELLER_API_KEY_C="a+b/c=="\n`;
    expect([...parseKeysFile(text, 'keys.env', [])]).toEqual([
      ['SELLER_API_KEY_A', SECRET],
      ['SELLER_API_KEY_B', SECRET],
      ['SELLER_API_KEY_C', 'a+b/c=='],
    ]);
  });

  it('reads a line starting with `export ` as dotenv does (a file also sourced by a shell)', () => {
    const text = `export SELLER_API_KEY=${SECRET}\nexport\tSELLER_API_KEY_B="${SECRET}"\n`;
    expect([...parseKeysFile(text, 'keys.env', [])]).toEqual([
      ['SELLER_API_KEY', SECRET],
      ['SELLER_API_KEY_B', SECRET],
    ]);
  });

  it.each<[string, string, RegExp]>([
    ['a line without =', `SELLER_API_KEY_A=x\n${SECRET}\n`, /keys\.env: line 2 is not NAME=KEY/],
    [
      'a name that is no variable name',
      `${SECRET}-x=y\n`,
      /line 1: the text before = is not a variable name/,
    ],
    [
      'a name not allowed to hold a key',
      `DB_PASSWORD=${SECRET}\n`,
      /^--keys-file keys\.env: line 1: the name before = is not a key variable: rename it SELLER_API_KEY \(or SELLER_API_KEY_<NAME>, and give --key-env SELLER_API_KEY_<NAME>\), or list it in CATALOG_SYNC_KEY_ENVS \(a comma list, in the environment\) and give --key-env with it$/,
    ],
    [
      'the trust list itself',
      'CATALOG_SYNC_KEY_ENVS=DB_PASSWORD\n',
      /line 1: the name before = is not a key variable/,
    ],
    ['an empty key', '\nSELLER_API_KEY_A=\n', /line 2: SELLER_API_KEY_A has no key/],
    ['an empty quoted key', 'SELLER_API_KEY_A=""\n', /line 1: SELLER_API_KEY_A has no key/],
    [
      'an inline comment',
      `#\nSELLER_API_KEY_A=${SECRET} # shop A\n`,
      /^--keys-file keys\.env: line 2: SELLER_API_KEY_A has a space in its key, which no API key has: an inline # comment must go on a line of its own$/,
    ],
    [
      'an inline comment after a quoted key',
      `SELLER_API_KEY_A="${SECRET}"  # shop A\n`,
      /line 1: SELLER_API_KEY_A has a space in its key.*# comment must go on a line of its own/,
    ],
    ['a space inside the quotes', `SELLER_API_KEY_A="${SECRET} x"\n`, /line 1: SELLER_API_KEY_A has a space/],
    [
      'a quote left open',
      `SELLER_API_KEY_A="${SECRET}\n`,
      /^--keys-file keys\.env: line 1: SELLER_API_KEY_A has a quote in its key, which no API key has: quote the whole key \(NAME="KEY"\) or none of it$/,
    ],
    [
      'mismatched quotes',
      `SELLER_API_KEY_A="${SECRET}'\n`,
      /line 1: SELLER_API_KEY_A has a quote in its key/,
    ],
    [
      'a quote inside the key',
      `SELLER_API_KEY_A='sk_a"b'\n`,
      /line 1: SELLER_API_KEY_A has a quote in its key/,
    ],
    [
      'a name given twice',
      `SELLER_API_KEY_A=${SECRET}\n#\nSELLER_API_KEY_A=${SECRET}\n`,
      /line 3: SELLER_API_KEY_A is given twice/,
    ],
  ])('refuses %s in one line naming the file and line, never the key', async (_what, text, message) => {
    const error = await refusalOf(() => parseKeysFile(text, 'keys.env', ['CATALOG_SYNC_KEY_ENVS']));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('\n');
    expect(error.exitCode).toBe(2);
  });

  it.each(['WOO_CONSUMER_KEY', 'WOO_CONSUMER_SECRET_EU', 'SHOPIFY_ACCESS_TOKEN'])(
    'a store credential (%s): one line saying where a store`s secrets go instead',
    async (name) => {
      const error = await refusalOf(() =>
        parseKeysFile(`SELLER_API_KEY=k\n${name}=${SECRET}\n`, 'keys.env', []),
      );
      expect(error.message).toBe(
        `--keys-file keys.env: line 2: ${name} is a store's credential, which a keys file does not take (it holds Seller API keys): ` +
          `a store's token or keys come from the environment; for cron, from a file of variables the cron line reads (${join(projectRoot(), 'docs', 'running.md')}, Cron)`,
      );
      expect(error.message).not.toContain(SECRET);
    },
  );

  it('allows a name listed in CATALOG_SYNC_KEY_ENVS only when listed', async () => {
    expect(parseKeysFile('SHOP_KEY=k\n', 'f', ['SHOP_KEY']).get('SHOP_KEY')).toBe('k');
    expect((await refusalOf(() => parseKeysFile('SHOP_KEY=k\n', 'f', []))).message).toMatch(
      /line 1: the name before = is not a key variable.*CATALOG_SYNC_KEY_ENVS/,
    );
  });
});

describe('the keys file on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keys-file-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function keysFile(mode: number, text = `SELLER_API_KEY_ACME=${SECRET}\n`): Promise<string> {
    const path = join(dir, 'keys.env');
    await writeFile(path, text);
    await chmod(path, mode);
    return path;
  }

  it('reads a file of mode 600 (or 400)', async () => {
    expect((await readKeysFile(await keysFile(0o600), [])).get('SELLER_API_KEY_ACME')).toBe(SECRET);
    expect((await readKeysFile(await keysFile(0o400), [])).size).toBe(1);
  });

  it.each([0o640, 0o604, 0o620, 0o602, 0o644, 0o666])(
    'refuses mode %o, saying chmod 600 FILE',
    async (mode) => {
      const path = await keysFile(mode);
      const error = await refusalOf(() => readKeysFile(path, []));
      expect(error.message).toContain(`chmod 600 ${path}`);
      expect(error.message).not.toContain(SECRET);
    },
  );

  it('refuses a missing file or a folder in one line', async () => {
    // A wrong path says so in words (it said `cannot be read (ENOENT)`), the path as given.
    expect((await refusalOf(() => readKeysFile(join(dir, 'none'), []))).message).toBe(
      `--keys-file ${join(dir, 'none')}: no such file`,
    );
    expect((await refusalOf(() => readKeysFile(join(dir, 'none', 'keys.env'), []))).message).toBe(
      `--keys-file ${join(dir, 'none', 'keys.env')}: no such file`,
    );
    const folder = join(dir, 'folder');
    await mkdir(folder, { mode: 0o700 });
    expect((await refusalOf(() => readKeysFile(folder, []))).message).toMatch(/is not a regular file/);
  });

  it("adds the file's keys to a copy of the environment; the same value in both is fine", async () => {
    const path = await keysFile(0o600, `SELLER_API_KEY_ACME=${SECRET}\nSELLER_API_KEY=sk_same\n`);
    const env = { SELLER_API_KEY: 'sk_same', OTHER: '1' };
    const io = { env };
    await applyKeysFile(io, path);
    expect(io.env).toEqual({ SELLER_API_KEY: 'sk_same', OTHER: '1', SELLER_API_KEY_ACME: SECRET });
    expect(env).not.toHaveProperty('SELLER_API_KEY_ACME');
  });

  it('refuses a name the environment sets to another key, naming it and neither key', async () => {
    const error = await refusalOf(() =>
      mergeKeys({ SELLER_API_KEY_ACME: 'sk_env_key' }, new Map([['SELLER_API_KEY_ACME', SECRET]]), 'k.env'),
    );
    expect(error.message).toMatch(/k\.env: SELLER_API_KEY_ACME is set in the environment too/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('sk_env_key');
  });
});
