import { type FileHandle, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { z } from 'zod';
import { builtOnce, yaml, zod } from '../lazy-modules.js';
import { CatalogConfigError } from './errors.js';
import { checkMappingTargets } from './mapping-targets.js';
import { PRESET_NAMES } from './presets/types.js';
import { UNSENDABLE_FIELD } from './presets/unsendable.js';
import { TRANSFORM_NAMES } from './transforms.js';

/** The file's schema, built when the first mapping file is read (zod is loaded then: lazy-modules.ts). */
const schemas = builtOnce(() => {
  const { z } = zod();
  const scalar = z.union([z.string(), z.number(), z.boolean()]);

  const fieldRule = z.preprocess(
    (value) => (typeof value === 'string' ? { column: value } : value),
    z
      .strictObject({
        column: z.string().min(1).optional(),
        /** The first of these columns the source has (one mapping for several versions of an export). */
        anyColumn: z.array(z.string().min(1)).min(1).optional(),
        columns: z.array(z.string().min(1)).min(1).optional(),
        /** A column the source may lack: then the field is absent instead of an error. */
        optional: z.boolean().optional(),
        /** Joins the text of several columns (default one space); lists keep one item per column. */
        join: z.string().optional(),
        /** Splits one cell into a list (default `,`). */
        separator: z.string().min(1).optional(),
        transform: z
          .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(TRANSFORM_NAMES)))
          .optional(),
        constant: scalar.optional(),
        /** The field is the marketplace's own, though its name is near a product field's (mapping-targets.ts). */
        custom: z.boolean().optional(),
      })
      .refine(
        (rule) =>
          [rule.column, rule.anyColumn, rule.columns, rule.constant].filter((v) => v !== undefined).length ===
          1,
        { message: 'give exactly one of column, anyColumn, columns or constant' },
      )
      .nullable(),
  );

  const mappingFile = z.strictObject({
    /** A preset to start from; the mapping's fields replace or add to its fields (null removes one). */
    preset: z.enum(PRESET_NAMES).optional(),
    decimal: z.enum(['dot', 'comma', 'either', 'auto']).optional(),
    matchBy: z.string().min(1).optional(),
    fields: z.record(z.string().min(1), fieldRule),
  });
  return { fieldRule, mappingFile };
});

type Schemas = ReturnType<typeof schemas>;

export type FieldRule = NonNullable<z.infer<Schemas['fieldRule']>>;

export interface MappingSpec extends z.infer<Schemas['mappingFile']> {
  /** The file as the user wrote its path (`maps/de.yml`), for error messages and the summary. */
  origin: string;
}

/**
 * A JSON or YAML parser's error as one line: its first, without the colon that introduces the code
 * frame YAML prints below it (`… at line 3, column 1:`).
 */
export function syntaxErrorLine(error: unknown): string {
  return String((error as Error).message)
    .split('\n')[0]!
    .replace(/:\s*$/, '');
}

/**
 * Reads a mapping file (JSON or YAML); every problem is one line naming the file and the key.
 * `opener`: how the file is opened when not by `readFile` (a job file's mapping is judged on the
 * descriptor it is read from); what it throws without a system error code is its refusal, as is.
 * `written`: the path as the user wrote it where `path` is not (a job file's, resolved from its
 * project folder): the file is named so, not by its base name alone (`de.yml`: which one?).
 */
export async function loadMappingFile(
  path: string,
  opener?: (path: string) => Promise<FileHandle>,
  written = path,
): Promise<MappingSpec> {
  const origin = written;
  let text: string;
  try {
    text = opener === undefined ? await readFile(path, 'utf8') : await readOpened(await opener(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined && opener !== undefined) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CatalogConfigError(`${origin}: cannot read the mapping file (${code})`);
  }
  return parseMapping(text, origin, extname(path).toLowerCase() === '.json' ? 'json' : 'yaml');
}

async function readOpened(handle: FileHandle): Promise<string> {
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Parses mapping text; pure, so its errors are table-tested. */
export function parseMapping(text: string, origin: string, syntax: 'json' | 'yaml'): MappingSpec {
  let data: unknown;
  try {
    data = syntax === 'json' ? JSON.parse(text) : yaml().parse(text);
  } catch (error) {
    throw new CatalogConfigError(
      `${origin}: not valid ${syntax === 'json' ? 'JSON' : 'YAML'}: ${syntaxErrorLine(error)}`,
    );
  }
  // The schema's record of fields would drop this key without a word (it assigns it).
  const fields = (data as { fields?: unknown } | null)?.fields;
  if (typeof fields === 'object' && fields !== null && Object.hasOwn(fields, UNSENDABLE_FIELD)) {
    throw new CatalogConfigError(`${origin}: fields.${UNSENDABLE_FIELD}: no product field can be named so`);
  }
  const result = schemas().mappingFile.safeParse(data);
  if (!result.success) {
    // A misspelt key also leaves the right one missing: the misspelling is the useful line.
    const issues = [...result.error.issues].sort(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    );
    const issue = issues[0]!;
    throw new CatalogConfigError(`${origin}: ${describeIssue(issue, data)}`);
  }
  const spec = { ...result.data, origin };
  checkMappingTargets(spec);
  return spec;
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const path = issue.path.reduce<string>(
    (text, part) =>
      typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part),
    '',
  );
  const where = path || '(top level)';
  const input = valueAt(data, issue.path);
  if (issue.code === 'invalid_value' && path.includes('transform')) {
    return `${where}: unknown transform ${JSON.stringify(input)} (known: ${TRANSFORM_NAMES.join(', ')})`;
  }
  if (issue.code === 'invalid_value')
    return `${where}: ${JSON.stringify(input)} is not one of ${issue.values.join(', ')}`;
  if (issue.code === 'unrecognized_keys') return `${path ? `${path}: ` : ''}unknown key "${issue.keys[0]}"`;
  if (issue.code === 'invalid_type' && input === undefined) return `${where}: missing`;
  return `${where}: ${issue.message}`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
