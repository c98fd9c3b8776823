import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { namedFields, readAsLine, TOOL_FIELDS, unknownFieldLine } from '../../../src/catalog/field-names.js';
import { applyJob, parseJob } from '../../../src/cli/job-file.js';
import { checkOptionsAlone, checkSentFields, type SentFields } from '../../../src/cli/option-conflicts.js';
import { cliOrigins, OptionNames } from '../../../src/cli/option-origins.js';
import type { RunFlags } from '../../../src/cli/run-flags.js';
import { addRunOptions } from '../../../src/cli/run-options.js';
import { UsageError } from '../../../src/cli/usage-error.js';

const JOB = '/srv/jobs/nightly.yml';
const CSV: SentFields = {
  fields: ['sku', 'name', 'price', 'quantity'],
  given: ['sku', 'name', 'price', 'quantity'],
  closed: true,
  preset: 'generic',
  format: 'csv',
};

function command(): Command {
  return addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
}

/** The flags `run` would have: from the command line, then from a job file when given. */
function flagsOf(args: string[], job?: string): RunFlags {
  const parsed = command();
  parsed.parse(args, { from: 'user' });
  const flags = parsed.opts<RunFlags>();
  if (job === undefined) return { ...flags, origins: cliOrigins(parsed) };
  return applyJob(parsed, flags, parseJob(`source: a.csv\n${job}`, JOB), JOB, {}).flags;
}

/** The one line a run with these options is refused with, or null when it is let go. */
function refusal(
  args: string[],
  options: { job?: string; source?: string; sent?: Partial<SentFields> } = {},
) {
  const flags = flagsOf(args, options.job);
  const names = new OptionNames(flags, flags.origins);
  try {
    checkOptionsAlone(options.source ?? 'a.csv', flags, names);
    const fields = flags.fields ?? options.sent?.fields ?? CSV.fields;
    checkSentFields(flags, names, { ...CSV, ...options.sent, fields });
    return null;
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
}

describe('options that would do nothing are refused in one line naming them', () => {
  it.each([
    [['--full-read-after', '1d'], /^--full-read-after: .* not --incremental/],
    [
      ['--keep-remote-edits', 'name', '--fields', 'price'],
      /^--keep-remote-edits: name: this run does not send it \(--fields price\)$/,
    ],
    [
      ['--create-only-fields', 'name', '--fields', 'sku,price'],
      /^--create-only-fields: name: this run does not send it \(--fields sku,price\)$/,
    ],
    [['--first', 'quantity', '--fields', 'sku,price'], /^--first: quantity: this run does not send it/],
    [
      ['--max-price-change', '10%', '--fields', 'name'],
      /^--max-price-change: this run sends no price or sale_price \(--fields name\)/,
    ],
    [['--max-updates', '1', '--only', 'create'], /^--max-updates: --only create updates nothing/],
    [['--max-price-change', '10%', '--only', 'create'], /^--max-price-change: --only create updates nothing/],
    [
      ['--keep-remote-edits', 'all', '--only', 'create'],
      /^--keep-remote-edits: --only create updates nothing/,
    ],
    [['--first', 'price', '--only', 'create'], /^--first: --only create sends creates only/],
    [
      ['--create-only-fields', 'price', '--only', 'update'],
      /^--create-only-fields: --only update creates nothing/,
    ],
    [['--missing', 'quantity=0', '--only', 'update'], /^--missing: a run with --only update leaves rows out/],
    [
      ['--tax-rate', '5%', '--fields', 'name'],
      /^--tax-rate: this run sends no price or sale_price \(--fields name\)/,
    ],
    [['--price-includes-tax', '--fields', 'name'], /^--price-includes-tax: this run sends no price/],
    [['--price-decimals', '3', '--fields', 'sku,name'], /^--price-decimals: this run sends no price/],
    [
      ['--create-only-fields', 'price', '--keep-remote-edits', 'price'],
      /^--keep-remote-edits: price is create-only \(--create-only-fields price\)/,
    ],
    [['--create-only-fields', 'price', '--first', 'price'], /^--first: price is create-only/],
    [
      ['--create-only-fields', 'price,sale_price', '--max-price-change', '5%'],
      /^--max-price-change: price and sale_price are create-only/,
    ],
    [
      ['--create-only-fields', 'quantity', '--missing', 'quantity=0'],
      /^--missing: quantity is create-only .*: the deactivating PUT cannot set it$/,
    ],
    [['--include-external'], /^--include-external: only the woocommerce preset .* the generic preset/],
    [['--source-timeout', '5s'], /^--source-timeout: .* this source is a file/],
    [['--data-dir', '/srv/data'], /^--data-dir: .* no --job/],
    [['--sandbox', '--base-url', 'http://127.0.0.1:9/api/v1'], /^--base-url: --sandbox runs against/],
  ])('%j', (args, line) => {
    expect(refusal(args)).toMatch(line);
  });

  it('--only-published where no row can say it is not sold: a preset with no published state, no status field', () => {
    expect(refusal(['--only-published'])).toBe(
      '--only-published: no row of this source can say it is not sold (the generic preset reads that from a status field, and this source gives none): drop it',
    );
    for (const preset of ['amazon', 'ebay', 'etsy']) {
      expect(refusal(['--only-published'], { sent: { preset } })).toBe(
        `--only-published: no row of this source can say it is not sold (the ${preset} preset reads no published state, and this source gives no status field): drop it`,
      );
    }
    expect(refusal([], { job: 'onlyPublished: true', sent: { preset: 'etsy' } })).toMatch(
      /^onlyPublished in nightly\.yml: no row of this source can say/,
    );
    expect(refusal(['--only-published'], { sent: { preset: 'mapping m.yml' } })).toMatch(
      /\(a mapping file alone reads that from a status field, and this source gives none\)/,
    );
    // A status field (the source's own, or a mapping file's) is the row's published state.
    const withStatus = { given: [...CSV.given, 'status'] };
    expect(refusal(['--only-published'], { sent: withStatus })).toBeNull();
    expect(refusal(['--only-published'], { sent: { ...withStatus, preset: 'amazon' } })).toBeNull();
    // --fields leaves status unsent: the rows still say it (given), and are left out by it.
    expect(refusal(['--only-published', '--fields', 'sku,price'], { sent: withStatus })).toBeNull();
    for (const preset of [
      'shopify',
      'woocommerce',
      'magento',
      'prestashop',
      'shopware',
      'bigcommerce',
      'google-merchant',
    ])
      expect(refusal(['--only-published'], { sent: { preset } })).toBeNull();
    // A JSON record after the first may bring a status field.
    expect(refusal(['--only-published'], { sent: { closed: false, format: 'json' } })).toBeNull();
  });

  it('a name the source does not give at all gets the nearest field', () => {
    expect(refusal(['--keep-remote-edits', 'nme'])).toBe(
      '--keep-remote-edits: nme: this run does not send it (the source gives sku, name, price, quantity); the nearest field is name',
    );
    expect(refusal(['--first', 'price,stock'])).toMatch(/; the stock field is quantity$/);
  });

  it('what a store source makes idle', () => {
    expect(refusal(['--delimiter', ';'], { source: 'shopify://shop.myshopify.com' })).toMatch(
      /^--delimiter: a store source is read through its API/,
    );
    expect(refusal(['--source-api-version', '2025-01'], { source: 'woocommerce://shop.example' })).toMatch(
      /^--source-api-version: .* WooCommerce store/,
    );
    expect(refusal(['--delimiter', ';'], { sent: { format: 'json' } })).toMatch(
      /^--delimiter: this source is json/,
    );
  });

  it('lets the options go when they can act', () => {
    for (const args of [
      ['--full-read-after', '1d', '--incremental'],
      ['--keep-remote-edits', 'name', '--fields', 'name,price'],
      ['--keep-remote-edits', 'all', '--only', 'update'],
      ['--create-only-fields', 'price', '--only', 'create'],
      ['--max-price-change', '10%', '--tax-rate', '20%'],
      ['--max-updates', '1', '--only', 'update'],
      // Sale prices alone move the price the buyer pays: the guard weighs them.
      ['--max-price-change', '50%', '--fields', 'sku,sale_price'],
      ['--max-price-change', '50%', '--create-only-fields', 'price'],
    ]) {
      expect(refusal(args)).toBeNull();
    }
    expect(refusal(['--include-external'], { sent: { preset: 'woocommerce' } })).toBeNull();
    expect(refusal(['--source-timeout', '5s'], { source: 'https://erp.example/feed.csv' })).toBeNull();
  });

  it('a JSON source whose later records may bring a field: a name not in the first is not judged here', () => {
    expect(refusal(['--keep-remote-edits', 'color'], { sent: { closed: false, format: 'json' } })).toBeNull();
  });
});

describe('a job file and the command line', () => {
  it("names each option where it was written: the job file's key, or the flag", () => {
    expect(refusal(['--max-price-change', '10%'], { job: 'fields: [name]\n' })).toBe(
      '--max-price-change: this run sends no price or sale_price (fields: name in nightly.yml): the guard would never act',
    );
    expect(refusal([], { job: 'only: create\nmaxUpdates: 5\n' })).toBe(
      'maxUpdates in nightly.yml: only: create in nightly.yml updates nothing: the guard would never act',
    );
    expect(refusal(['--only', 'create'], { job: 'maxUpdates: 5\n' })).toMatch(
      /^maxUpdates in nightly\.yml: --only create updates nothing/,
    );
    expect(refusal([], { job: 'fullReadAfter: 1d\n' })).toMatch(/^fullReadAfter in nightly\.yml: /);
  });

  it("names a product field an option gives where it was written: a job file's key and file", () => {
    // `missing: {stock: 0}` in the job was refused as `--missing: stock: …`, a flag the cron line lacks.
    const flags = flagsOf(['--first', 'price'], 'missing:\n  stock: 0\nfields: [sku, prce]\n');
    const names = new OptionNames(flags, flags.origins);
    const named = namedFields(flags, (option) => names.name(option));
    expect(named).toEqual([
      { option: 'missing in nightly.yml', name: 'stock' },
      { option: '--first', name: 'price' },
      { option: 'fields in nightly.yml', name: 'sku' },
      { option: 'fields in nightly.yml', name: 'prce' },
    ]);
    expect(readAsLine(named, new Map([['stock', 'quantity']]), ['sku', 'quantity'])).toBe(
      "missing in nightly.yml: stock: this source's stock column is read as quantity: name quantity",
    );
    expect(unknownFieldLine(named[0]!, TOOL_FIELDS, 'no product has it')).toBe(
      'missing in nightly.yml: stock: no product has it; the stock field is quantity',
    );
  });

  it('an option to give is said where the user gives it: the job file (a worker has no command line), else the flag', () => {
    const toGive = (args: string[], job?: string) => {
      const flags = flagsOf(args, job);
      return new OptionNames(flags, flags.origins).toGive('keyEnv', 'SELLER_API_KEY_SHOP');
    };

    expect(toGive([], 'keyEnv: SELLER_API_KEY_SHOPB\n')).toBe('keyEnv: SELLER_API_KEY_SHOP in nightly.yml');
    expect(toGive([], 'seller: shop\n')).toBe('keyEnv: SELLER_API_KEY_SHOP in nightly.yml');
    expect(toGive(['--key-env', 'SELLER_API_KEY_X'], 'seller: shop\n')).toBe('--key-env SELLER_API_KEY_SHOP');
    expect(toGive([])).toBe('--key-env SELLER_API_KEY_SHOP');
  });

  it('a flag that overrides the same option of the job file is no repeat, and may make the combination fit', () => {
    expect(
      refusal(['--fields', 'sku,price', '--max-price-change', '10%'], { job: 'fields: [name]\n' }),
    ).toBeNull();
    expect(refusal(['--only', 'update'], { job: 'only: create\nmaxUpdates: 5\n' })).toBeNull();
  });
});

describe('an option given twice on the command line', () => {
  it.each([
    [
      ['--fields', 'name', '--fields', 'price'],
      '--fields is given twice: give it once (a list takes commas: --fields a,b); the last would silently replace the first',
    ],
    [
      ['--only', 'create', '--only', 'update'],
      '--only is given twice: give it once; the last would silently replace the first',
    ],
    [
      ['--match-by', 'sku', '--match-by', 'name'],
      '--match-by is given twice: give it once; the last would silently replace the first',
    ],
    [
      ['--only', 'create', '--only', 'create'],
      '--only is given twice: give it once; the last would silently replace the first',
    ],
    // A value that may hold a secret is never quoted back.
    [
      ['--notify', 'https://hooks.example/T/SECRET', '--notify', 'https://hooks.example/T/B'],
      '--notify is given twice: give it once; the last would silently replace the first',
    ],
  ])('%j is refused', (args, line) => {
    expect(() => flagsOf(args)).toThrow(new UsageError(line));
  });

  it('a flag without a value said twice says the same thing: let go', () => {
    expect(flagsOf(['--dry-run', '--dry-run']).dryRun).toBe(true);
  });
});

describe('--dry-run: what it does not apply is said, not refused', () => {
  it('names the guards and --first, where each was written', () => {
    const flags = flagsOf(['--dry-run', '--max-updates', '5'], 'maxPriceChange: 50%\nfirst: price\n');
    expect(checkOptionsAlone('a.csv', flags, new OptionNames(flags, flags.origins))).toEqual([
      '--dry-run: --max-updates, maxPriceChange in nightly.yml, first in nightly.yml act on writes and are not applied: a dry run writes nothing and holds nothing',
    ]);
  });

  it('names the default --max-missing that --missing brings, which nobody typed', () => {
    const flags = flagsOf(['--dry-run', '--missing', 'quantity=0']);
    expect(checkOptionsAlone('a.csv', flags, new OptionNames(flags, flags.origins))).toEqual([
      '--dry-run: --max-missing 20% (default) acts on writes and is not applied: a dry run writes nothing and holds nothing',
    ]);
    const given = flagsOf(['--dry-run', '--missing', 'quantity=0', '--max-missing', '5']);
    expect(checkOptionsAlone('a.csv', given, new OptionNames(given, given.origins))).toEqual([
      '--dry-run: --max-missing acts on writes and is not applied: a dry run writes nothing and holds nothing',
    ]);
  });

  it('says nothing of a dry run without them', () => {
    const flags = flagsOf(['--dry-run']);
    expect(checkOptionsAlone('a.csv', flags, new OptionNames(flags, flags.origins))).toEqual([]);
  });
});
