import type { SourceRecord } from '../interfaces.js';
import { nearlyFits } from './detect-preset.js';
import { CatalogConfigError } from './errors.js';
import { mappingUse } from './generic-names.js';
import type { MappingSpec } from './mapping-file.js';
import { misspeltColumns, misspeltLine, misspeltList, renameHint } from './misspelt-columns.js';
import { presetLookups } from './presets/asked-columns.js';
import type { Preset } from './presets/index.js';

/** What of the source and the run decides which header cells a platform preset leaves unread. */
export interface HeaderRead {
  /** The header as the source writes it (a JSON source's: its first record's keys). */
  columns: readonly string[];
  /** The preset's name for each of them (a localized header's, read back). */
  presetColumns: readonly string[];
  /** The first records, by `presetColumns`. */
  sample: readonly SourceRecord[];
  /** The records name their own keys: those the sample brings are the header's too. */
  open: boolean;
  /** A mapping file over the preset: the columns it reads are read. */
  mapping?: MappingSpec;
}

/**
 * Refuses, before anything is sent, a source whose platform preset would leave a header cell unread
 * that is one typo from a column it reads and the file lacks (misspelt-columns.ts): `Variant
 * Inventory Qtty` synced a Shopify export without its quantities, exit 0, and a marketplace kept
 * selling 20 that the file had set to 0. A column near nothing the preset reads is let be.
 */
export function refuseMisspeltHeader(label: string, preset: Pick<Preset, 'create'>, read: HeaderRead): void {
  const mapped = (read.mapping && mappingUse(read.mapping).reads) ?? new Set<string>();
  const header: { column: string; name: string }[] = read.presetColumns.map((name, i) => ({
    column: read.columns[i] ?? name,
    name,
  }));
  if (read.open)
    for (const record of read.sample)
      for (const key in record.values)
        if (!header.some(({ name }) => name === key)) header.push({ column: key, name: key });
  const names = header.map(({ name }) => name);
  const columnOf = (name: string) => header.find((cell) => cell.name === name)?.column ?? name;
  const misspelt = misspeltColumns(names, presetLookups(preset, names))
    .map((near) => ({ ...near, column: columnOf(near.column) }))
    .filter(({ column }) => !mapped.has(column));
  if (misspelt.length > 0) throw new CatalogConfigError(misspeltLine(label, misspelt));
}

/**
 * Refuses a header no preset fits that one would but for required columns it writes one typo off
 * (detect-preset.ts nearlyFits): named, rather than read as a generic file (a WooCommerce export's
 * prices never read) or refused for a reason that never names the column (`no preset knows these
 * columns`). `--preset generic` reads such a file as it is.
 */
export function refuseNearlyFit(columns: readonly string[], sample: readonly SourceRecord[]): void {
  const near = nearlyFits(columns, sample);
  if (!near) return;
  const what = near.misspelt.length === 1 ? 'a column it requires' : 'columns it requires';
  throw new CatalogConfigError(
    `preset ${near.name} (not detected: ${what} mistyped): ${misspeltList(near.misspelt)}: ${renameHint(near.misspelt)}, or give --preset generic to read the file as it is`,
  );
}
