import { CatalogConfigError } from './errors.js';
import { type ReadAs, readAsLine, unknownFieldLine } from './field-names.js';
import type { CompiledMapping } from './mapping.js';
import { mayShowField, shownFields } from './shown-fields.js';

/** The fields a source gives: its preset's, less what a mapping file removes, with what it adds. */
export function availableFields(presetFields: string[], compiled: CompiledMapping | undefined): string[] {
  if (!compiled) return presetFields;
  const kept = presetFields.filter((field) => !compiled.removed.includes(field));
  return [...new Set([...kept, ...compiled.fields])];
}

/**
 * What `--fields` may name: the fields the source gives, and `currency` wherever it gives a price: a
 * price cell may name one (`12.50 EUR`, price-currency.ts), and a run that sends the price without
 * it refuses such a row, saying to add it. Not among the fields a source is said to give: a file
 * with plain prices never gives one.
 */
export function sendableFields(available: readonly string[]): string[] {
  if (available.includes('currency') || !(available.includes('price') || available.includes('sale_price')))
    return [...available];
  return [...available, 'currency'];
}

/**
 * `--fields` checked against what the source gives: a column read as another field names that field
 * (readAsLine), a name the source does not give is refused with the nearest it does. `option`: the
 * option as the user wrote it (`fields in nightly.yml` for a job file's).
 */
export function checkFields(
  wanted: string[],
  available: string[],
  readAs: ReadAs,
  option = '--fields',
): Set<string> {
  const named = wanted.map((name) => ({ option, name }));
  const readLine = readAsLine(named, readAs, available);
  if (readLine !== null) throw new CatalogConfigError(readLine);
  const sendable = sendableFields(available);
  const unknown = wanted.find((field) => !sendable.includes(field));
  if (unknown !== undefined) {
    // Only what the source gives can be sent: the nearest is sought among those.
    const line = unknownFieldLine(
      { option, name: unknown },
      available.filter(mayShowField),
      'this source gives no such field',
    );
    throw new CatalogConfigError(`${line} (this source gives: ${shownFields(available)})`);
  }
  return new Set(wanted);
}
