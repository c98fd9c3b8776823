import type { Command } from 'commander';
import { PRESET_NAMES } from '../catalog/index.js';
import { commander } from '../cjs-packages.js';
import {
  DEFAULT_FULL_READ_AFTER_MS,
  DEFAULT_MAX_RECORD_BYTES,
  DEFAULT_SOURCE_TIMEOUT_MS,
} from '../defaults.js';
import { parseCountOrPercent, parsePercent } from '../guards/limits.js';
import { parseMissingValues } from '../missing/missing-values.js';
import type { LookupFunction } from '../net/checked-connect.js';
import { parseNotifyUrl } from '../notify/webhook-url.js';
import { parseSellerName } from '../queue/seller-names.js';
import { addConnectionOptions } from './connection-options.js';
import { applyJob, checkJobNotify, loadJob } from './job-file.js';
import { checkJobPaths, DATA_DIR_VARIABLE, reportFolders } from './job-paths.js';
import { checkJobStoreSource } from './job-store-source.js';
import { cliOrigins, refuseRepeats } from './option-origins.js';
import {
  checkDailyReset,
  parseConcurrency,
  parseDailyBudget,
  parseDelimiter,
  parseFieldList,
  parseFullReadAfter,
  parseMaxRecordBytes,
  parsePriceDecimals,
  parseShopifyApiVersion,
  parseSourceCredentials,
  parseSourceTimeout,
  parseTaxRate,
  SHOPIFY_API_VERSION,
} from './option-values.js';
import type { RunFlags } from './run-flags.js';
import { UsageError } from './usage-error.js';

/** The options that only `run` acts on: `import` exits before the run settles, in another process. */
const RUN_ONLY: ReadonlyArray<{ flag: string; name: keyof RunFlags; of?: string; why: string }> = [
  {
    flag: '--concurrency',
    name: 'concurrency',
    of: '`run` and `worker`',
    why: '`import` sends no request: give it to the `worker` that serves the run',
  },
  {
    flag: '--report',
    name: 'report',
    why: '`import` exits before the run settles: once it is done, `catalog-sync report <run-id> --out FILE`',
  },
  {
    flag: '--no-wait',
    name: 'wait',
    why: '`import` never waits: it exits at once, and the workers wait out a daily-limit pause',
  },
  {
    flag: '--sandbox',
    name: 'sandbox',
    why: 'the in-process sandbox lives only as long as the command: use it with `run`',
  },
];

/**
 * The options of `run` (`forCommand` 'run') or `import`: `import` does not show `run`'s own
 * options and refuses them with one line (exit 2) rather than ignoring them.
 */
export function addRunOptions(command: Command, forCommand: 'run' | 'import'): Command {
  addSharedOptions(command);
  if (forCommand === 'run') {
    command
      .option(
        '--concurrency <n>',
        'requests in flight to the Seller API at once, per process',
        parseConcurrency,
        8,
      )
      .option('--report <file>', 'also write the per-row result file there when the run settles')
      .option('--no-wait', 'on a daily-limit pause, exit 4 at once (rows stay queued)')
      .option('--sandbox', 'use an in-process sandbox Seller API instead of a real one', false);
    return refuseRepeats(command);
  }
  // Known to the parser (so that the refusal is ours, in one line), never shown in --help.
  command
    .addOption(new (commander().Option)('--concurrency <n>').hideHelp().default(8))
    .addOption(new (commander().Option)('--report <file>').hideHelp())
    .addOption(new (commander().Option)('--no-wait').hideHelp())
    .addOption(new (commander().Option)('--sandbox').hideHelp().default(false));
  return refuseRepeats(command).hook('preAction', (_program, action) => {
    for (const option of RUN_ONLY) {
      if (action.getOptionValueSource(option.name) === 'cli') {
        throw new UsageError(`${option.flag} is an option of ${option.of ?? '`run` only'}: ${option.why}`);
      }
    }
  });
}

function addSharedOptions(command: Command): Command {
  command
    .addOption(
      new (commander().Option)(
        '--preset <name>',
        'column mapping of a known export (default: detected)',
      ).choices([...PRESET_NAMES]),
    )
    .option(
      '--mapping <file>',
      'a mapping file (JSON or YAML): source column → product field, with transforms',
    )
    .option(
      '--fields <list>',
      'the product fields sent to the API, comma-separated (default: every mapped field)',
      (value: string) => parseFieldList(value),
    )
    .option(
      '--create-only-fields <list>',
      'fields sent when a product is created and never in a PUT, comma-separated',
      (value: string) => parseFieldList(value, '--create-only-fields'),
    )
    .option(
      '--first <list>',
      "when a run needs more than the day's remaining quota: updates of these fields go first, then other updates, then creates (default: price,quantity)",
      (value: string) => parseFieldList(value, '--first'),
    )
    .option(
      '--keep-remote-edits <list>',
      'fields (or all) whose changes made on the marketplace since this tool wrote them are kept, not overwritten by the source',
      (value: string) => parseFieldList(value, '--keep-remote-edits'),
    )
    .option(
      '--only-published',
      'leave out (report skipped) the rows the source platform does not sell: drafts, private, archived, hidden, disabled (with --missing: counted as gone from the source)',
      false,
    )
    .option(
      '--include-external',
      'send the products the source sells on another site (WooCommerce external/affiliate products), skipped otherwise',
      false,
    )
    .option(
      '--price-includes-tax',
      "send gross prices: the file's gross price, or its net price plus the row's tax rate or --tax-rate",
      false,
    )
    .option(
      '--tax-rate <percent>',
      'the tax rate added to net prices a row gives no rate for, in percent: 20% or 20; below 1 only with its %, 0.5% (implies --price-includes-tax)',
      parseTaxRate,
    )
    .option(
      '--price-decimals <n>',
      'a price or sale price with more decimals than this is sent rounded half up (after any tax is added); default 2',
      parsePriceDecimals,
    )
    .option(
      '--incremental',
      "write only the rows that differ from what this tool last sent, without reading the seller's products",
      false,
    )
    .addOption(
      new (commander().Option)(
        '--full-read-after <duration>',
        "with --incremental: read the seller's products anyway when the last full read is older (e.g. 7d, 12h)",
      )
        .argParser(parseFullReadAfter)
        .default(DEFAULT_FULL_READ_AFTER_MS, '7d'),
    )
    .option(
      '--match-by <field>',
      "the field that identifies a product across runs (default: the mapping file's matchBy, else sku)",
    )
    .option('--dry-run', 'read, validate and diff; write the plan as the report; no POST or PUT', false)
    .option(
      '--daily-reset <HH:MM>',
      'UTC time the daily limit resets, when a 429 carries no reset header',
      checkDailyReset,
      '00:00',
    )
    .option(
      '--daily-budget <n>',
      "spend at most N requests a day of the seller's quota, then pause",
      parseDailyBudget,
    )
    .option(
      '--seller <name>',
      "the seller's name (lower case, digits, . _ -): a new or fixed key keeps its queue, id map and quota count",
      (value: string) => parseSellerName(value),
    )
    .addOption(
      new (commander().Option)('--format <format>', 'force the source format (default: detected)').choices([
        'csv',
        'json',
        'ndjson',
        'xml',
      ]),
    )
    .option('--delimiter <char>', 'force the CSV delimiter: , ; tab or |', parseDelimiter)
    .addOption(
      new (commander().Option)(
        '--source-timeout <duration>',
        'a source URL that delivers less than 1 KiB in any window this long ends the run (e.g. 30s, 2m)',
      )
        .argParser(parseSourceTimeout)
        .default(DEFAULT_SOURCE_TIMEOUT_MS, '30s'),
    )
    .option(
      '--allow-private-source',
      "allow a source URL, redirect or webhook that leads to a link-local, metadata, 100.64.0.0/10 or IPv6 unique-local address, or from a public address into loopback or a private range, or a job file's feed on loopback or a private network",
      false,
    )
    .addOption(
      new (commander().Option)(
        '--max-record-bytes <n>',
        'one CSV record, NDJSON line, JSON element or XML item longer than this ends the run (8MiB, 512KiB, 1048576)',
      )
        .argParser(parseMaxRecordBytes)
        .default(DEFAULT_MAX_RECORD_BYTES, '8MiB'),
    )
    .option(
      '--source-credentials <name>',
      "a store source's credentials from SHOPIFY_ACCESS_TOKEN_<NAME>, or WOO_CONSUMER_KEY_<NAME> and WOO_CONSUMER_SECRET_<NAME>",
      parseSourceCredentials,
    )
    .option(
      '--source-api-version <version>',
      `the Shopify Admin API version of a shopify:// source (default ${SHOPIFY_API_VERSION})`,
      parseShopifyApiVersion,
    )
    .option(
      '--encoding <name>',
      'force the source encoding, e.g. utf-8, windows-1252, utf-16le (default: detected)',
    )
    .option(
      '--force',
      "start even when Redis' room left (maxmemory - used) looks too small for the run",
      false,
    )
    .option(
      '--allow-eviction',
      'work with a Redis whose maxmemory-policy is not noeviction (an evicted key is a lost row or a duplicate)',
      false,
    )
    .option(
      '--max-invalid <N|P%>',
      'guard: more invalid rows than this (a count, or a percentage of the rows) holds the whole run',
      (value: string) => parseCountOrPercent(value, '--max-invalid'),
    )
    .option(
      '--max-updates <N|P%>',
      "guard: updating more of the seller's products than this (a count, or a percentage of those listed) holds the whole run",
      (value: string) => parseCountOrPercent(value, '--max-updates'),
    )
    .option(
      '--max-price-change <P%>',
      'guard: a row whose price, or the price the buyer pays (its sale price below the price), would move by more than this (either way) is held; in percent: 50% or 50; below 1 only with its %, 0.5%',
      (value: string) => parsePercent(value, '--max-price-change'),
    )
    .option(
      '--missing <field=value,...>',
      'products this tool manages that the source no longer holds get one PUT of these fields (e.g. quantity=0); they return with their former values',
      (value: string) => parseMissingValues(value, '--missing'),
    )
    .option(
      '--max-missing <N|P%>',
      'guard, with --missing: deactivating more than this (a count of products, or a percentage of the managed products listed) holds the whole run (default 20%)',
      (value: string) => parseCountOrPercent(value, '--max-missing', 'product'),
    )
    .option(
      '--only <create|update>',
      'only create new products, or only update existing ones; the other rows are skipped',
      parseOnly,
    )
    .option(
      '--notify <url>',
      'POST a JSON summary (with a Slack-style text line) to URL when the run ends, is held, or pauses',
      (value: string) => parseNotifyUrl(value),
    )
    .option('--job <name>', 'take source and options from jobs/NAME.yml (flags still override)')
    .option(
      '--data-dir <dir>',
      `a folder a job file's paths may name besides the one that holds jobs/ (default: ${DATA_DIR_VARIABLE})`,
    );
  return addConnectionOptions(command, {
    redis: true,
    keyEnvHelp: "the environment variable that holds this seller's key",
  });
}

export function parseOnly(value: string): 'create' | 'update' {
  if (value === 'create' || value === 'update') return value;
  throw new UsageError(`--only takes create or update, not "${value}" (without --only: both)`);
}

/** The source and options of a run: from the command line, filled in from `--job` where given. */
export async function resolveRunInput(
  command: Command,
  source: string | undefined,
  flags: RunFlags,
  env: NodeJS.ProcessEnv,
  /** The resolver of the process's network seams: a job's webhook is judged on what it answers. */
  lookup?: LookupFunction,
): Promise<{ source: string; flags: RunFlags }> {
  if (flags.job) {
    const { path, job } = await loadJob(flags.job);
    const resolved = applyJob(command, flags, job, path, env);
    const { folders, reads } = await checkJobPaths(
      command,
      job,
      path,
      resolved.flags,
      source === undefined,
      env,
    );
    resolved.flags.jobReads = reads;
    resolved.flags.sourceFromJob = source === undefined;
    if (resolved.flags.reportFromJob) resolved.flags.reportWithin = reportFolders(folders);
    await checkJobNotify(command, job, path, resolved.flags, env, lookup);
    // The job's store source only: one given on the command line is the operator's.
    if (source === undefined) checkJobStoreSource(resolved.source, path, env);
    return { source: source ?? resolved.source, flags: resolved.flags };
  }
  if (!source)
    throw new UsageError(`${command.name()} needs a <source> (a file, - or an http(s) URL) or --job NAME`);
  return { source, flags: { ...flags, origins: cliOrigins(command) } };
}
