import type { SourceRecord } from '../interfaces.js';
import type { CompiledMapping } from './mapping.js';
import type { Draft, RowMapper } from './presets/index.js';
import { convertField, type RowRules } from './validate.js';

/**
 * Reads the sample's values with the source's decimal reader, for what they teach it: a file whose
 * first price is `1.250` and whose second is `12.50` reads both with the dot the file shows, in
 * either order, rather than the first by a guess (the `;` file's comma: a factor of 1000 if wrong).
 * Nothing else is kept: the preset's row mapper is one of its own, and the rows are read again.
 */
export function learnDecimals(
  sample: readonly SourceRecord[],
  rowMapper: RowMapper,
  rename: ((record: SourceRecord) => SourceRecord) | undefined,
  compiled: CompiledMapping | undefined,
  rules: RowRules,
): void {
  const originals = new WeakMap<SourceRecord, SourceRecord>();
  const drafts: Draft[] = [];
  for (const record of sample) {
    const pushed = rename ? rename(record) : record;
    originals.set(pushed, record);
    drafts.push(...rowMapper.push(pushed));
  }
  for (const draft of [...drafts, ...rowMapper.end()]) {
    if (draft.kind !== 'product') continue;
    const fields = { ...draft.fields };
    if (compiled) compiled.apply(originals.get(draft.record) ?? draft.record, fields);
    for (const field in fields) convertField(field, fields[field] as string | string[], rules);
  }
}
