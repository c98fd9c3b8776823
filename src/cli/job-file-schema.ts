import type { z as Z } from 'zod';
import { PRESET_NAMES } from '../catalog/index.js';
import { MAX_RECORD_BYTES, MIN_RECORD_BYTES } from '../defaults.js';
import { parseCountOrPercent, parsePercent } from '../guards/limits.js';
import { builtOnce, zod } from '../lazy-modules.js';
import { type MissingValues, missingValuesOfMap, parseMissingValues } from '../missing/missing-values.js';
import { parseNotifyUrl } from '../notify/webhook-url.js';
import { isSellerName } from '../queue/seller-names.js';
import { parseByteSize } from '../sources/limits.js';
import { CREDENTIALS_NAME } from '../sources/stores/credentials.js';
import { checkApiVersion, SHOPIFY_API_VERSION } from '../sources/stores/shopify/bulk-query.js';
import { nearestName } from './nearest-name.js';
import {
  checkDailyReset,
  parseDelimiter,
  parseFieldList,
  parseFullReadAfter,
  parsePriceDecimals,
  parseSourceTimeout,
  parseTaxRate,
} from './option-values.js';

/**
 * What a job file (`jobs/NAME.yml`) may hold: the source and the options of `run`/`import`, each
 * checked as its flag is (with the flag's own parser where it has one: a job file is no way around
 * a flag's rule, `delimiter: "="` no more than `--delimiter =`). Reading and applying it: job-file.ts.
 */
/** A guard's limit in a job file: a count (`5`) or a percentage (`"10%"`), as the flag takes. */
function countOrPercent(z: typeof Z, option: string, counted: 'row' | 'product' = 'row') {
  const message = `must be a ${counted} count (e.g. 5) or a percentage up to 100% (e.g. 10%)`;
  return z
    .union([z.string(), z.number()], { error: message })
    .refine((value) => parses(() => parseCountOrPercent(String(value), option, counted)), message)
    .optional();
}

/**
 * A list of product fields: YAML's list, or the flag's comma-separated text; as the flag, at least
 * one name (`fields: " , "` would otherwise send a field named "").
 */
function fieldList(z: typeof Z) {
  const message = 'must name at least one product field (a list, or names separated by commas)';
  return z
    .union([z.string(), z.array(z.string())], { error: message })
    .refine((value) => parses(() => parseFieldList(Array.isArray(value) ? value.join(',') : value)), message)
    .optional();
}

/**
 * A whole number from 1 (to `max`): one message, the option's, whatever is wrong with the value (text,
 * a fraction, 0), rather than the schema's own (`expected number, received string`).
 */
function wholeNumber(z: typeof Z, max: number | null, message: string) {
  const number = z.number({ error: message }).int({ error: message }).min(1, { error: message });
  return (max === null ? number : number.max(max, { error: message })).optional();
}

/** `preset:` that is none: the presets, and the one meant when it is a typo (`shopfy`). */
function presetMessage(name: string): string {
  const nearest = nearestName(name, PRESET_NAMES);
  return `must be one of ${PRESET_NAMES.join(', ')}, as --preset takes${nearest ? ` (did you mean ${nearest}?)` : ''}`;
}

function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/**
 * A value given as text, never empty: `report: ''` (a template's blank, an unset variable written
 * out) would otherwise run without a report and say nothing, as an empty flag would (empty-values.ts).
 */
function text(z: typeof Z) {
  return z.string().min(1, 'is empty: give a value, or leave the line out');
}

/* What a key takes, said alike of a value of the wrong type (`fullReadAfter: 7`) and of a wrong value. */
const TAX_RATE = 'must be a percentage such as 20% or 7.7% (below 1 with its %: 0.2%, not 0.2)';
const PRICE_DECIMALS = 'must be a whole number from 0 to 6 (the decimals of the currency, e.g. 2 for cents)';
const FULL_READ_AFTER = 'must be a duration such as 7d, 12h or 30m';
const SOURCE_TIMEOUT = 'must be a duration such as 30s or 2m';
const RECORD_BYTES = 'must be a size from 1KiB to 1GiB, such as 8MiB, 512KiB or 1048576';
const PRICE_CHANGE = 'must be a percentage such as 50% (below 1 with its %: 0.5%, not 0.5)';

const MISSING_FORMS =
  'takes field: value pairs, e.g. missing: {quantity: 0} (or the flag\'s form, missing: "quantity=0")';

/** A job file's `missing:` as `--missing` values: a map, or the flag's `quantity=0,status=draft`. */
export function missingValuesOfJob(value: string | Record<string, unknown>): MissingValues {
  return typeof value === 'string' ? parseMissingValues(value, 'missing') : missingValuesOfMap(value);
}

/**
 * Why a job file's `missing:` is refused, or null: a value it may not set says why
 * (`price=0 would put …`), a value not in its forms gets the forms.
 */
function missingRefusal(value: string | Record<string, unknown>): string | null {
  try {
    missingValuesOfJob(value);
    return null;
  } catch (error) {
    // The values' own reasons name the key first (`missing: …`); the line names it already.
    const prefix = 'missing: ';
    const message = error instanceof Error ? error.message : '';
    return message.startsWith(prefix) ? message.slice(prefix.length) : MISSING_FORMS;
  }
}

/** The schema, built when the first job file is read (zod is loaded then: lazy-modules.ts). */
export const jobFile = builtOnce(() => {
  const { z } = zod();
  return z
    .object({
      source: z.string().min(1),
      preset: text(z)
        .refine((name) => (PRESET_NAMES as readonly string[]).includes(name), {
          error: (issue) => presetMessage(String(issue.input)),
        })
        .optional(),
      mapping: text(z).optional(),
      fields: fieldList(z),
      createOnlyFields: fieldList(z),
      first: fieldList(z),
      keepRemoteEdits: fieldList(z),
      onlyPublished: z.boolean().optional(),
      includeExternal: z.boolean().optional(),
      priceIncludesTax: z.boolean().optional(),
      taxRate: z
        .union([z.string(), z.number()], { error: TAX_RATE })
        .refine((value) => isTaxRate(String(value)), TAX_RATE)
        .optional(),
      /** `--price-decimals N`. */
      priceDecimals: z
        .union([z.number(), z.string()], { error: PRICE_DECIMALS })
        .refine((value) => parses(() => parsePriceDecimals(String(value))), PRICE_DECIMALS)
        .optional(),
      incremental: z.boolean().optional(),
      fullReadAfter: z
        .string({ error: FULL_READ_AFTER })
        .refine((text) => parses(() => parseFullReadAfter(text)), FULL_READ_AFTER)
        .optional(),
      matchBy: text(z).optional(),
      concurrency: wholeNumber(z, 256, 'must be a whole number from 1 to 256, as --concurrency takes'),
      dryRun: z.boolean().optional(),
      report: text(z).optional(),
      dailyReset: z
        .string()
        .refine((text) => parses(() => checkDailyReset(text)), 'must be HH:MM (UTC)')
        .optional(),
      dailyBudget: wholeNumber(
        z,
        null,
        "must be a whole number above 0 (the requests a day to spend of the seller's quota), as --daily-budget takes",
      ),
      keyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
        .optional(),
      baseUrl: text(z).optional(),
      /** `--seller NAME`. */
      seller: z
        .string()
        .refine(
          (text) => isSellerName(text),
          'must be a seller name of lower-case letters, digits, . _ - (starting with a letter or digit, at most 63)',
        )
        .optional(),
      format: z.enum(['csv', 'json', 'ndjson', 'xml']).optional(),
      delimiter: text(z)
        .refine((text) => parses(() => parseDelimiter(text)), 'takes , ; tab or |, as --delimiter does')
        .optional(),
      encoding: text(z).optional(),
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
        .refine(checkApiVersion, `must be a Shopify API version such as ${SHOPIFY_API_VERSION}`)
        .optional(),
      sourceTimeout: z
        .string({ error: SOURCE_TIMEOUT })
        .refine((text) => parses(() => parseSourceTimeout(text)), SOURCE_TIMEOUT)
        .optional(),
      maxRecordBytes: z
        .union([z.number().int(), z.string()], { error: RECORD_BYTES })
        .refine((value) => {
          const bytes = typeof value === 'number' ? value : parseByteSize(value);
          return bytes !== null && bytes >= MIN_RECORD_BYTES && bytes <= MAX_RECORD_BYTES;
        }, RECORD_BYTES)
        .optional(),
      maxInvalid: countOrPercent(z, '--max-invalid'),
      maxUpdates: countOrPercent(z, '--max-updates'),
      maxPriceChange: z
        .union([z.string(), z.number()], { error: PRICE_CHANGE })
        .refine((value) => parses(() => parsePercent(String(value), '')), PRICE_CHANGE)
        .optional(),
      only: z.enum(['create', 'update']).optional(),
      /**
       * `--missing`: a map, e.g. `missing: {quantity: 0}`, or the flag's text (`"quantity=0"`), as
       * `fields:` takes a list or the flag's text.
       */
      missing: z
        .union([z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))], {
          error: MISSING_FORMS,
        })
        .superRefine((value, context) => {
          const why = missingRefusal(value);
          if (why !== null) context.addIssue({ code: 'custom', message: why });
        })
        .optional(),
      maxMissing: countOrPercent(z, '--max-missing', 'product'),
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
