import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { type CatalogRow, catalogRows, writeCsv } from '../support/catalog.js';
import { assertBuilt, runIdOf } from '../support/cli.js';
import { bySku } from '../support/pipeline.js';
import { removePrefix, uniquePrefix } from '../support/redis-prefix.js';

const KEY = 'sk_cron_night';
const SELLER = 'cron-seller';

/** A section of docs/running.md (where the README sends cron users), up to the next of its level. */
async function readmeSection(heading: string): Promise<string> {
  const doc = await readFile(join(projectRoot(), 'docs', 'running.md'), 'utf8');
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/running.md has no section "${heading}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

function lineOf(section: string, pattern: RegExp): string {
  const match = pattern.exec(section);
  if (!match?.[1]) throw new Error(`the section has no line matching ${pattern}`);
  return match[1].trim();
}

/**
 * The README's cron line, run as cron runs it: `sh -c` with an environment that holds nothing but
 * the crontab's PATH (as `env -i` gives), and the `catalog-sync` command installed as the README
 * installs it (`npm install --global`, here into a folder of the test's own, offline: a link to this
 * checkout, whose dist/ the suite built). Its only addition is the test's Redis prefix, a variable
 * line a crontab may hold like PATH (the suite shares one Redis).
 */
describe("the README's cron line, from an empty environment", () => {
  let installed = '';
  let cronPath = '';
  let cronLine = '';
  let approveLine = '';
  /** The section's lines that make folders of the project (`/srv/catalog-sync`), as documented. */
  let setupLines: string[] = [];
  let sandbox: Sandbox;
  let project = '';
  let prefix = '';

  beforeAll(async () => {
    assertBuilt();
    installed = await mkdtemp(join(tmpdir(), 'catalog-sync-installed-'));
    const npm = ['install', '--global', '--ignore-scripts', '.', '--prefix', installed];
    execFileSync('npm', [...npm, '--offline', '--no-audit', '--no-fund'], {
      cwd: projectRoot(),
      stdio: 'ignore',
    });
    const section = await readmeSection('Cron, from an empty environment');
    // The documented PATH, with the folder the command was installed into for /usr/local/bin; and
    // the folder of this `node`, which the README's PATH must hold too (it says so).
    const documented = lineOf(section, /^\s*PATH=(\S+)$/m).split(':');
    const folders = documented.map((folder) =>
      folder === '/usr/local/bin' ? join(installed, 'bin') : folder,
    );
    cronPath = [...new Set([...folders, dirname(process.execPath)])].join(delimiter);
    cronLine = lineOf(section, /^\s*0 2 \* \* \*\s+(.+)$/m);
    approveLine = lineOf(section, /^\s*(cd \S+ && catalog-sync approve .+)$/m);
    setupLines = [...section.matchAll(/^\s*((?:install -d|mkdir)\b.*\/srv\/catalog-sync\b.*)$/gm)].map(
      (match) => (match[1] as string).trim(),
    );
  });
  afterAll(async () => {
    await rm(installed, { recursive: true, force: true });
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ keys: [{ key: KEY, seller: SELLER }] });
    project = await mkdtemp(join(tmpdir(), 'catalog-sync-cron-'));
    prefix = uniquePrefix();
    await mkdir(join(project, 'jobs'));
    await writeFile(join(project, 'jobs', 'nightly.yml'), 'source: feed.csv\nmaxPriceChange: 50%\n');
    await writeFile(join(project, 'keys.env'), `SELLER_API_KEY=${KEY}\n`);
    await chmod(join(project, 'keys.env'), 0o600);
    // The section's own set-up lines for the project folder (the log's folder): nothing else makes it.
    for (const line of setupLines) {
      const made = await asCron(ours(line));
      expect(made.code, made.output).toBe(0);
    }
  });
  afterEach(async () => {
    await sandbox.close();
    await removePrefix(prefix);
    await rm(project, { recursive: true, force: true });
  });

  /** A documented line with this test's folder, keys file, API and run id in place of the README's. */
  function ours(line: string, runId = ''): string {
    return line
      .replaceAll('/srv/catalog-sync', project)
      .replaceAll('/etc/catalog-sync/keys.env', join(project, 'keys.env'))
      .replaceAll('https://api.example.com/api/v1', sandbox.baseUrl)
      .replaceAll('<run-id>', runId);
  }

  /** `sh -c line` with nothing in its environment but PATH (and the test's Redis prefix). */
  async function asCron(
    line: string,
    more: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number | null; output: string }> {
    const env: NodeJS.ProcessEnv = { PATH: cronPath, CATALOG_SYNC_PREFIX: prefix, ...more };
    if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
    const child = spawn('/bin/sh', ['-c', line], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, output };
  }

  it('syncs the job night after night; a held night is approved with the same options, nothing exported', {
    timeout: 60_000,
  }, async () => {
    expect(cronLine).toContain('catalog-sync run --job nightly');
    expect(cronLine).not.toContain('npx');
    const rows = catalogRows(5);
    await writeCsv(project, 'feed.csv', rows);

    const first = await asCron(ours(cronLine));

    const log = () => readFile(join(project, 'logs', 'nightly.log'), 'utf8');
    expect(first.code, await log()).toBe(0);
    expect(await log()).toContain('rows      5: 5 created, 0 updated');
    expect(sandbox.products(SELLER)).toHaveLength(5);

    // The next night the feed triples a price: the guard holds the run (exit 5).
    const changed = rows.map((row, i) => (i === 0 ? { ...row, price: '300.00' } : row));
    await writeCsv(project, 'feed.csv', changed);
    await writeFile(join(project, 'logs', 'nightly.log'), '');
    const held = await asCron(ours(cronLine));
    expect(held.code, await log()).toBe(5);
    const runId = runIdOf(await log());
    expect(bySku(sandbox.products(SELLER)).get(rows[0]?.sku as string)?.price).toBe(Number(rows[0]?.price));

    const approved = await asCron(ours(approveLine, runId));

    expect(approved.code, approved.output).toBe(0);
    expect(approved.output).toContain(`approved 1 held row of run ${runId}`);
    expect(bySku(sandbox.products(SELLER)).get(rows[0]?.sku as string)?.price).toBe(300);
  });

  it("approve: --base-url must be the run's own; --key-env names another variable holding its key", {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(3);
    await writeCsv(project, 'feed.csv', rows);
    expect((await asCron(ours(cronLine))).code).toBe(0);
    await writeFile(join(project, 'logs', 'nightly.log'), '');
    await writeCsv(project, 'feed.csv', [{ ...(rows[0] as CatalogRow), price: '300.00' }, ...rows.slice(1)]);
    expect((await asCron(ours(cronLine))).code).toBe(5);
    const runId = runIdOf(await readFile(join(project, 'logs', 'nightly.log'), 'utf8'));

    const elsewhere = await asCron(
      ours(approveLine, runId).replace(sandbox.baseUrl, 'http://127.0.0.1:9/api/v1'),
    );
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.output).toBe(
      `catalog-sync: run ${runId} was made for ${sandbox.baseUrl}, not for --base-url http://127.0.0.1:9/api/v1\n`,
    );

    await writeFile(join(project, 'night.env'), `SELLER_API_KEY_NIGHT=${KEY}\n`, { mode: 0o600 });
    const named = await asCron(
      `${ours(approveLine, runId).replace(join(project, 'keys.env'), join(project, 'night.env'))} --key-env SELLER_API_KEY_NIGHT`,
    );
    expect(named.code, named.output).toBe(0);
    expect(bySku(sandbox.products(SELLER)).get(rows[0]?.sku as string)?.price).toBe(300);
  });

  it('resume: a revoked key replaced in the keys file, the seller resumed with the same options', {
    timeout: 60_000,
  }, async () => {
    await writeCsv(project, 'feed.csv', catalogRows(3));
    expect((await asCron(ours(cronLine))).code).toBe(0);
    // The key that served the seller is revoked; the marketplace issues another for the same seller.
    sandbox.revokeKey(KEY);
    await writeCsv(project, 'feed.csv', catalogRows(4));
    const rejected = await asCron(ours(cronLine));
    expect(rejected.code).toBe(3);
    const options = ours(cronLine).replace(/^.*?(--base-url \S+ --keys-file \S+).*$/, '$1');
    const seller = /resume --seller (\w+)/.exec(
      await readFile(join(project, 'logs', 'nightly.log'), 'utf8'),
    )?.[1];
    expect(seller).toBeDefined();
    sandbox.addKey('sk_cron_new', SELLER);
    await writeFile(join(project, 'keys.env'), 'SELLER_API_KEY=sk_cron_new\n');

    // The seller's base URL is read from Redis: without --base-url nothing in the environment allows it.
    const unvouched = await asCron(
      `catalog-sync resume --seller ${seller} ${options.replace(/--base-url \S+ /, '')}`,
    );
    expect(unvouched.code).toBe(2);
    expect(unvouched.output).toContain(`seller ${seller} stays paused: its base URL's host`);
    // The refusal names the option that vouches for it, never filled in with the URL Redis holds.
    expect(unvouched.output).toContain("; or give the API's URL on the command line with --base-url\n");
    const resumed = await asCron(`catalog-sync resume --seller ${seller} ${options}`);

    expect(resumed.code, resumed.output).toBe(0);
    expect(resumed.output).toContain(`seller ${seller}: resumed`);
    const again = await asCron(ours(cronLine));
    expect(again.code).toBe(0);
    expect(sandbox.products(SELLER)).toHaveLength(4);
  });

  it('resume: the hint the rejected run printed works as printed, from a shell that exported nothing', {
    timeout: 60_000,
  }, async () => {
    await writeCsv(project, 'feed.csv', catalogRows(3));
    expect((await asCron(ours(cronLine))).code).toBe(0);
    sandbox.revokeKey(KEY);
    await writeCsv(project, 'feed.csv', catalogRows(4));
    expect((await asCron(ours(cronLine))).code).toBe(3);
    const log = await readFile(join(project, 'logs', 'nightly.log'), 'utf8');
    // The command up to its closing backquote, or the line's next parenthesis.
    const hint = /(catalog-sync resume [^`(]*[^`( ])/.exec(log)?.[1];
    expect(hint, log).toBeDefined();
    sandbox.addKey('sk_cron_new', SELLER);
    await writeFile(join(project, 'keys.env'), 'SELLER_API_KEY=sk_cron_new\n');

    // The line as printed, nothing added: the morning's shell has none of cron's options.
    const resumed = await asCron(hint as string, { LOG_LEVEL: 'warn' });

    expect(resumed.code, resumed.output).toBe(0);
    // Checked and linked: the new key, read from the keys file the hint names, serves the seller.
    expect(resumed.output).toMatch(/seller \S+: the key in SELLER_API_KEY now serves this seller\n/);
    expect(resumed.output).toMatch(/seller \S+: resumed/);
    expect(resumed.output).not.toContain('without checking');
    expect((await asCron(ours(cronLine))).code).toBe(0);
    expect(sandbox.products(SELLER)).toHaveLength(4);
  });
});
