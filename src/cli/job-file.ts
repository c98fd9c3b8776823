import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { syntaxErrorLine } from '../catalog/mapping-file.js';
import { parseDuration } from '../duration.js';
import { parseCountOrPercent, parsePercent } from '../guards/limits.js';
import { yaml } from '../lazy-modules.js';
import type { LookupFunction } from '../net/checked-connect.js';
import { checkJobNotifyAddress, checkJobNotifyHost } from '../notify/webhook-url.js';
import { parseByteSize } from '../sources/limits.js';
import { checkBaseUrlHost, checkKeyEnv, readTrustRules, readWebhookHosts } from '../trust-config.js';
import { type JobFile, jobFile, missingValuesOfJob } from './job-file-schema.js';
import { isLocalPath, localPath } from './job-paths.js';
import { nearestName } from './nearest-name.js';
import { cliOrigins, jobOrigin } from './option-origins.js';
import { checkDailyReset, parseDelimiter, parsePriceDecimals, parseTaxRate } from './option-values.js';
import type { RunFlags } from './run-flags.js';
import { UsageError } from './usage-error.js';

/**
 * A declarative import (`jobs/NAME.yml`): the source and the options of `run`/`import`, so a cron
 * line reads `catalog-sync run --job nightly`. Flags given on the command line win over the file.
 */

/** `--job nightly` → jobs/nightly.yml (or .yaml, .json) under the current folder; a path works too. */
export async function loadJob(name: string, cwd = process.cwd()): Promise<{ path: string; job: JobFile }> {
  const candidates = extname(name)
    ? [resolve(cwd, name)]
    : JOB_EXTENSIONS.map((ext) => resolve(cwd, name.includes('/') ? name : join('jobs', name)) + ext);
  for (const path of candidates) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    return { path, job: parseJob(text, path) };
  }
  // `--job nightly.yml` is a path from here, not a name in jobs/: say the name when that is it.
  const named =
    extname(name) && !name.includes('/') && existsSync(join(cwd, 'jobs', name))
      ? `; jobs/${name} is there: --job ${basename(name, extname(name))}`
      : await nearestJobHint(name, dirname(candidates[0] as string));
  throw new UsageError(
    `--job ${name}: no job file (looked for ${candidates.map((p) => basename(p)).join(', ')} in ${dirname(candidates[0] as string)})${named}`,
  );
}

const JOB_EXTENSIONS = ['.yml', '.yaml', '.json'];

/**
 * The job of the folder looked in that a mistyped `--job` was meant to be (`; did you mean --job
 * example-nightly?`), or nothing: a name is compared with the jobs' names, a path with an
 * extension with the files' names.
 */
async function nearestJobHint(name: string, folder: string): Promise<string> {
  const files = await readdir(folder).catch(() => [] as string[]);
  const jobFiles = files.filter((file) => !file.startsWith('.') && JOB_EXTENSIONS.includes(extname(file)));
  const withExt = extname(name) !== '';
  const known = new Set(jobFiles.map((file) => (withExt ? file : basename(file, extname(file)))));
  const nearest = nearestName(basename(name), known);
  if (nearest === null) return '';
  return `; did you mean --job ${name.includes('/') ? `${dirname(name)}/${nearest}` : nearest}?`;
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
    if (issue?.code === 'unrecognized_keys' && issue.path.length === 0 && issue.keys[0] !== undefined)
      throw new UsageError(
        `${basename(path)}: ${unknownKeyLine(issue.keys[0], Object.keys(jobFile().shape))}`,
      );
    const where = issue?.path.length
      ? issue.path.join('.')
      : issue && 'keys' in issue
        ? String(issue.keys)
        : 'the file';
    throw new UsageError(`${basename(path)}: ${where}: ${issue ? issueText(issue) : 'invalid'}`);
  }
  return parsed.data;
}

/** What a key of the wrong type takes, in the file's words, where its schema says no more. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  boolean: 'must be true or false',
  string: 'must be text (in quotes when it looks like a number)',
  number: 'must be a number',
  array: 'must be a list',
  object: 'must be a map of key: value lines',
};

/**
 * A schema issue as a job file's line says it: the key's own message, or for a value of the wrong
 * type that has none, what the key takes; never zod's `Invalid input: expected number, received string`.
 */
function issueText(issue: { code: string; message: string; expected?: unknown; values?: unknown }): string {
  if (!/^Invalid (input|option)/.test(issue.message)) return issue.message;
  if (issue.code === 'invalid_value' && Array.isArray(issue.values))
    return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return TYPE_WORDS[String(issue.expected)] ?? issue.message;
  return issue.message;
}

/**
 * A top-level key the file does not take, and the one meant: the same key in another case or
 * spelling (`max-price-change`: the options' flag form), else the nearest, by commander's rule for a
 * mistyped option (at most 2 edits, and more alike than not), so a job file and the command line
 * answer a typo alike.
 */
export function unknownKeyLine(key: string, known: readonly string[]): string {
  const plain = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
  const same = known.find((name) => plain(name) === plain(key));
  if (same !== undefined) return `${key}: not a job file key: keys are the options in camelCase (${same})`;
  const nearest = nearestName(key, known);
  return nearest
    ? `${key}: not a job file key (did you mean ${nearest}?)`
    : `${key}: not a job file key (the keys are the options of run in camelCase: catalog-sync run --help)`;
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
    delimiter: job.delimiter === undefined ? undefined : parseDelimiter(job.delimiter),
    dailyReset: job.dailyReset === undefined ? undefined : checkDailyReset(job.dailyReset),
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
    missing: job.missing === undefined ? undefined : missingValuesOfJob(job.missing),
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
  if (job.mapping !== undefined && !fromCli('mapping')) merged.mappingAsWritten = job.mapping;
  // Recorded with the run: whichever process POSTs to it later judges the address it connects to.
  if (job.notify !== undefined && !fromCli('notify')) merged.notifyFromJob = true;
  return {
    source: isLocalPath(job.source) ? localPath(jobPath, job.source) : job.source,
    flags: merged as unknown as RunFlags,
  };
}

/**
 * A job file's webhook is the file's choice, not the operator's: its host must be listed in the
 * environment `env` (CATALOG_SYNC_WEBHOOK_HOSTS), and it gets the address policy of a job file's
 * feed, judged before any request. One given on the command line wins. `lookup`: the resolver of
 * the process's network seams (tests inject one), the system's when absent.
 */
export async function checkJobNotify(
  command: Command,
  job: JobFile,
  jobPath: string,
  flags: RunFlags,
  env: NodeJS.ProcessEnv,
  lookup?: LookupFunction,
): Promise<void> {
  if (job.notify === undefined || command.getOptionValueSource('notify') === 'cli' || !flags.notify) return;
  checkJobNotifyHost(flags.notify, `${basename(jobPath)}: notify`, readWebhookHosts(env));
  await checkJobNotifyAddress(
    flags.notify,
    `${basename(jobPath)}: notify`,
    flags.allowPrivateSource === true,
    ...(lookup ? [async (host: string) => (await lookup(host)).map((entry) => entry.address)] : []),
  );
}

/** A job file's field list: YAML's list, or the flag's comma-separated text. */
function fieldList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : value).map((field) => field.trim()).filter(Boolean);
}
