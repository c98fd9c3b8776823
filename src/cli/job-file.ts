import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { z as Z } from 'zod';
import { syntaxErrorLine } from '../catalog/mapping-file.js';
import { checkBaseUrlHost, checkKeyEnv, readTrustRules, readWebhookHosts } from '../config.js';
import { MAX_RECORD_BYTES, MIN_RECORD_BYTES } from '../defaults.js';
import { parseDuration } from '../duration.js';
import { parseCountOrPercent, parsePercent } from '../guards/limits.js';
import { builtOnce, yaml, zod } from '../lazy-modules.js';
import { missingValuesOfMap } from '../missing/missing-values.js';
import { checkJobNotifyAddress, checkJobNotifyHost, parseNotifyUrl } from '../notify/webhook-url.js';
import { isSellerName } from '../queue/seller-names.js';
import { parseByteSize } from '../sources/limits.js';
import { CREDENTIALS_NAME } from '../sources/stores/credentials.js';
import { checkApiVersion } from '../sources/stores/shopify/bulk-query.js';
import { isLocalPath, localPath } from './job-paths.js';
import { cliOrigins, jobOrigin } from './option-origins.js';
import { parsePriceDecimals, parseTaxRate } from './option-values.js';
import type { RunFlags } from './run-flags.js';
import { UsageError } from './usage-error.js';

/**
 * A declarative import (`jobs/NAME.yml`): the source and the options of `run`/`import`, so a cron
 * line reads `catalog-sync run --job nightly`. Flags given on the command line win over the file.
 */
/** A guard's limit in a job file: a count (`5`) or a percentage (`"10%"`), as the flag takes. */
function countOrPercent(z: typeof Z, option: string) {
  return z
    .union([z.string(), z.number()])
    .refine(
      (value) => parses(() => parseCountOrPercent(String(value), option)),
      'must be a row count (e.g. 5) or a percentage up to 100% (e.g. 10%)',
    )
    .optional();
}

function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/** The schema, built when the first job file is read (zod is loaded then: lazy-modules.ts). */
const jobFile = builtOnce(() => {
  const { z } = zod();
  return z
    .object({
      source: z.string().min(1),
      preset: z.string().optional(),
      mapping: z.string().optional(),
      fields: z.union([z.string(), z.array(z.string())]).optional(),
      createOnlyFields: z.union([z.string(), z.array(z.string())]).optional(),
      first: z.union([z.string(), z.array(z.string())]).optional(),
      keepRemoteEdits: z.union([z.string(), z.array(z.string())]).optional(),
      onlyPublished: z.boolean().optional(),
      includeExternal: z.boolean().optional(),
      priceIncludesTax: z.boolean().optional(),
      taxRate: z
        .union([z.string(), z.number()])
        .refine((value) => isTaxRate(String(value)), 'must be a percentage such as 20% or 7.7%')
        .optional(),
      /** `--price-decimals N`. */
      priceDecimals: z
        .union([z.number(), z.string()])
        .refine(
          (value) => parses(() => parsePriceDecimals(String(value))),
          'must be a whole number from 0 to 6 (the decimals of the currency, e.g. 2 for cents)',
        )
        .optional(),
      incremental: z.boolean().optional(),
      fullReadAfter: z
        .string()
        .refine((text) => parseDuration(text) !== null, 'must be a duration such as 7d, 12h or 30m')
        .optional(),
      matchBy: z.string().optional(),
      concurrency: z.number().int().min(1).max(256).optional(),
      dryRun: z.boolean().optional(),
      report: z.string().optional(),
      dailyReset: z
        .string()
        .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)')
        .optional(),
      dailyBudget: z.number().int().min(1).optional(),
      keyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
        .optional(),
      baseUrl: z.string().optional(),
      /** `--seller NAME`. */
      seller: z
        .string()
        .refine(
          (text) => isSellerName(text),
          'must be a seller name of lower-case letters, digits, . _ - (starting with a letter or digit, at most 63)',
        )
        .optional(),
      format: z.enum(['csv', 'json', 'ndjson', 'xml']).optional(),
      delimiter: z.string().optional(),
      encoding: z.string().optional(),
      /** `--source-credentials NAME`: names the store's credential variables, never holds one. */
      sourceCredentials: z
        .string()
        .regex(
          CREDENTIALS_NAME,
          'must be a NAME of capitals, digits and _, at most 32 (SHOPIFY_ACCESS_TOKEN_<NAME>), never a token or key',
        )
        .optional(),
      sourceApiVersion: z
        .string()
        .refine(checkApiVersion, 'must be a Shopify API version such as 2025-01')
        .optional(),
      sourceTimeout: z
        .string()
        .refine((text) => (parseDuration(text) ?? 0) >= 100, 'must be a duration such as 30s or 2m')
        .optional(),
      maxRecordBytes: z
        .union([z.number().int(), z.string()])
        .refine((value) => {
          const bytes = typeof value === 'number' ? value : parseByteSize(value);
          return bytes !== null && bytes >= MIN_RECORD_BYTES && bytes <= MAX_RECORD_BYTES;
        }, 'must be a size from 1KiB to 1GiB, such as 8MiB, 512KiB or 1048576')
        .optional(),
      maxInvalid: countOrPercent(z, '--max-invalid'),
      maxUpdates: countOrPercent(z, '--max-updates'),
      maxPriceChange: z
        .union([z.string(), z.number()])
        .refine((value) => parses(() => parsePercent(String(value), '')), 'must be a percentage such as 50%')
        .optional(),
      only: z.enum(['create', 'update']).optional(),
      /** `--missing`: a map, e.g. `missing: {quantity: 0}`. */
      missing: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .refine(
          (map) => parses(() => missingValuesOfMap(map)),
          'must be a map of fields such as {quantity: 0}',
        )
        .optional(),
      maxMissing: countOrPercent(z, '--max-missing'),
      /** `--notify`: an http(s) URL (checked against the address rule of sources when the job is read). */
      notify: z
        .string()
        .refine((text) => isNotifyUrl(text), 'must be an http(s) URL')
        .optional(),
      /** Read by `schedule` (cron syntax); ignored by run and import. */
      schedule: z.string().optional(),
    })
    .strict();
});

export type JobFile = Z.infer<ReturnType<typeof jobFile>>;

/** `--job nightly` → jobs/nightly.yml (or .yaml, .json) under the current folder; a path works too. */
export async function loadJob(name: string, cwd = process.cwd()): Promise<{ path: string; job: JobFile }> {
  const candidates = extname(name)
    ? [resolve(cwd, name)]
    : ['.yml', '.yaml', '.json'].map(
        (ext) => resolve(cwd, name.includes('/') ? name : join('jobs', name)) + ext,
      );
  for (const path of candidates) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    return { path, job: parseJob(text, path) };
  }
  throw new UsageError(
    `--job ${name}: no job file (looked for ${candidates.map((p) => basename(p)).join(', ')} in ${dirname(candidates[0] as string)})`,
  );
}

export function parseJob(text: string, path: string): JobFile {
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : yaml().parse(text);
  } catch (error) {
    throw new UsageError(
      `${basename(path)}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${syntaxErrorLine(error)}`,
    );
  }
  refuseLiftedRules(data, path);
  const parsed = jobFile().safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length
      ? issue.path.join('.')
      : issue && 'keys' in issue
        ? String(issue.keys)
        : 'the file';
    throw new UsageError(`${basename(path)}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/**
 * The options that lift a safety rule, and their flags: the operator's alone. A job file is not the
 * operator (it may come from a repository, a colleague, a template), so naming one is refused, even
 * as `false`, rather than ignored: the operator learns where the choice belongs.
 */
const OPERATOR_ONLY: Readonly<Record<string, string>> = {
  allowPrivateSource: '--allow-private-source',
  allowInsecure: '--allow-insecure',
  allowEviction: '--allow-eviction',
  force: '--force',
  dataDir: '--data-dir',
  keysFile: '--keys-file',
};

function refuseLiftedRules(data: unknown, path: string): void {
  if (typeof data !== 'object' || data === null) return;
  const named = Object.keys(data).find((key) => Object.hasOwn(OPERATOR_ONLY, key));
  if (named === undefined) return;
  throw new UsageError(
    `${basename(path)}: ${named}: a job file cannot lift a safety rule: pass ${OPERATOR_ONLY[named]} on the command line`,
  );
}

/**
 * Fills the options the user did not give on the command line from the job file; resolves the job's
 * relative paths against the folder that holds `jobs/`, so cron's working folder does not matter.
 * A job file is not trusted like the command line: the key variable it names and the host of the
 * base URL it sets must be allowed by the operator's environment `env` (README, Security).
 */
export function applyJob(
  command: Command,
  flags: RunFlags,
  job: JobFile,
  jobPath: string,
  env: NodeJS.ProcessEnv,
): { source: string; flags: RunFlags } {
  const fromCli = (name: string) => command.getOptionValueSource(name) === 'cli';
  const rules = readTrustRules(env);
  if (job.keyEnv !== undefined && !fromCli('keyEnv')) {
    checkKeyEnv(job.keyEnv, rules, `${basename(jobPath)}: keyEnv`);
  }
  // With --sandbox the job's base URL is not used.
  if (job.baseUrl !== undefined && !fromCli('baseUrl') && !flags.sandbox) {
    checkBaseUrlHost(job.baseUrl, rules, `${basename(jobPath)}: baseUrl`);
  }
  const merged: Record<string, unknown> = { ...flags };
  const fromJob: Record<string, unknown> = {
    ...job,
    source: undefined,
    schedule: undefined,
    mapping: job.mapping ? localPath(jobPath, job.mapping) : undefined,
    report: job.report ? localPath(jobPath, job.report) : undefined,
    fields: fieldList(job.fields),
    createOnlyFields: fieldList(job.createOnlyFields),
    first: fieldList(job.first),
    keepRemoteEdits: fieldList(job.keepRemoteEdits),
    fullReadAfter: job.fullReadAfter === undefined ? undefined : parseDuration(job.fullReadAfter),
    taxRate: job.taxRate === undefined ? undefined : parseTaxRate(String(job.taxRate)),
    priceDecimals:
      job.priceDecimals === undefined ? undefined : parsePriceDecimals(String(job.priceDecimals)),
    sourceTimeout: job.sourceTimeout === undefined ? undefined : parseDuration(job.sourceTimeout),
    maxRecordBytes:
      typeof job.maxRecordBytes === 'string' ? parseByteSize(job.maxRecordBytes) : job.maxRecordBytes,
    maxInvalid: job.maxInvalid === undefined ? undefined : parseCountOrPercent(String(job.maxInvalid), ''),
    maxUpdates: job.maxUpdates === undefined ? undefined : parseCountOrPercent(String(job.maxUpdates), ''),
    maxPriceChange:
      job.maxPriceChange === undefined ? undefined : parsePercent(String(job.maxPriceChange), ''),
    missing: job.missing === undefined ? undefined : missingValuesOfMap(job.missing),
    maxMissing: job.maxMissing === undefined ? undefined : parseCountOrPercent(String(job.maxMissing), ''),
  };
  const origins: Record<string, string> = { ...cliOrigins(command) };
  for (const [name, value] of Object.entries(fromJob)) {
    if (value === undefined) continue;
    if (fromCli(name)) continue;
    merged[name] = value;
    origins[name] = jobOrigin(jobPath);
  }
  merged.origins = origins;
  // Written without following a symbolic link (checkJobPaths refused one already).
  if (job.report !== undefined && !fromCli('report')) merged.reportFromJob = true;
  return {
    source: isLocalPath(job.source) ? localPath(jobPath, job.source) : job.source,
    flags: merged as unknown as RunFlags,
  };
}

/**
 * A job file's webhook is the file's choice, not the operator's: its host must be listed in the
 * environment `env` (CATALOG_SYNC_WEBHOOK_HOSTS), and it gets the address policy of source URLs,
 * judged before any request. One given on the command line wins.
 */
export async function checkJobNotify(
  command: Command,
  job: JobFile,
  jobPath: string,
  flags: RunFlags,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (job.notify === undefined || command.getOptionValueSource('notify') === 'cli' || !flags.notify) return;
  checkJobNotifyHost(flags.notify, `${basename(jobPath)}: notify`, readWebhookHosts(env));
  await checkJobNotifyAddress(
    flags.notify,
    `${basename(jobPath)}: notify`,
    flags.allowPrivateSource === true,
  );
}

/** A job file's field list: YAML's list, or the flag's comma-separated text. */
function fieldList(value: string | string[] | undefined): string[] | undefined {
  return typeof value === 'string' ? value.split(',').map((field) => field.trim()) : value;
}

function isNotifyUrl(text: string): boolean {
  try {
    parseNotifyUrl(text);
    return true;
  } catch {
    return false;
  }
}

function isTaxRate(text: string): boolean {
  try {
    parseTaxRate(text);
    return true;
  } catch {
    return false;
  }
}
