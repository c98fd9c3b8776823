import type { ReadAs } from './field-names.js';
import type { MappingSpec } from './mapping-file.js';
import { genericHeader } from './presets/generic-header.js';
import { type KeyRule, OpenKeys, readName } from './presets/generic-keys.js';

/** How the generic preset reads a source's columns or keys. */
export interface GenericNames {
  /** One name per column of the header (a JSON source's: its first record's keys). */
  presetColumns: readonly string[];
  /** The name a column or key is read under (PresetRun.nameOf); absent when each keeps its own. */
  nameOf?: (column: string) => string;
  /** The columns read as a product field of another name, for the options' check (readAsLine). */
  readAs: ReadAs;
  /**
   * For the summary: a CSV header's lines, or a JSON source's, said once its records are read (the
   * keys met so far: one first met in a later record is read and said as a first one's).
   */
  lines: string[] | (() => string[]);
  /** Why a row has no name, where a column or key near it is sent under its own name (PresetRun.unnamed). */
  unnamed?: () => string | undefined;
}

/**
 * The generic preset's names for a source: a CSV's by its whole header (generic-header.ts: two
 * columns may give one field), a JSON, NDJSON or XML source's key by key (generic-keys.ts: the same in
 * every record, whichever brings it, however it orders or omits the others).
 */
export function genericNames(
  columns: readonly string[],
  run: { mapping?: MappingSpec; open: boolean },
): GenericNames {
  const rule: KeyRule = run.mapping ? mappingUse(run.mapping) : {};
  if (run.open) {
    const keys = new OpenKeys(rule);
    return {
      presetColumns: columns.map((column) => readName(column, rule)),
      nameOf: keys.nameOf,
      // Any name, met or not: an option naming `stock` is refused whether tonight's first record has it.
      readAs: {
        get: (name) => {
          const read = readName(name, rule);
          return read === name ? undefined : read;
        },
        has: (name) => readName(name, rule) !== name,
      },
      lines: () => keys.lines(),
      unnamed: () => keys.unnamed(),
    };
  }
  const header = genericHeader(columns, rule);
  const names = header.localized?.columns ?? columns;
  const readAs = new Map(
    columns.flatMap((column, i) => (names[i] === column ? [] : [[column, names[i] ?? column] as const])),
  );
  const lines = header.localized ? [header.localized.says, ...header.lines] : header.lines;
  const { unnamed } = header;
  return {
    presetColumns: names,
    ...(readAs.size === 0 ? {} : { nameOf: (column: string) => readAs.get(column) ?? column }),
    readAs,
    lines,
    ...(unnamed === undefined ? {} : { unnamed: () => unnamed }),
  };
}

/** What a mapping file with `preset: generic` gives (KeyRule): its fields, and the columns it reads. */
export function mappingUse(mapping: MappingSpec): Pick<KeyRule, 'mapped' | 'reads'> {
  const mapped = new Map<string, readonly string[] | null>();
  const reads = new Set<string>();
  for (const [field, rule] of Object.entries(mapping.fields)) {
    const columns =
      rule === null
        ? null
        : [rule.column, ...(rule.anyColumn ?? []), ...(rule.columns ?? [])].flatMap((c) =>
            c === undefined ? [] : [c],
          );
    mapped.set(field, columns);
    for (const column of columns ?? []) reads.add(column);
  }
  return { mapped, reads };
}
