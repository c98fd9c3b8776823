import type { SourceRecord } from '../interfaces.js';
import { isInvisibleKey } from './invisible-text.js';
import type { CompiledMapping } from './mapping.js';
import type { RowMapper } from './presets/index.js';
import type { RowRules } from './validate.js';

/** What reads a row's key as its preset and mapping file would (the mapper's own parts). */
export interface UnreadRowKeyParts {
  /** A row mapper of the preset's, made for one record. */
  createRowMapper(): RowMapper;
  rename: ((record: SourceRecord) => SourceRecord) | undefined;
  compiled: CompiledMapping | undefined;
  rules: Pick<RowRules, 'matchBy' | 'specOf'>;
}

/**
 * The key of a row that is invalid because some of its bytes could not be read in the file's
 * encoding (`SourceRecord.cellsInPlace`): its own key field, where that cell reads whole (the bad
 * bytes in its description, its SKU plain ASCII). The report then shows the row under its key, as
 * any invalid row, and `--missing` counts its product as held by the source. The row is read by a
 * row mapper of its own, made for it alone: the run's mapper never takes its text (a Shopify title
 * row or a WooCommerce parent passes its fields on to the rows after it). A key the preset would
 * derive from other cells is not given: only the cell the file keys the row by.
 */
export function unreadRowKey(record: SourceRecord, parts: UnreadRowKeyParts): string | undefined {
  const { matchBy, specOf } = parts.rules;
  if (specOf(matchBy).kind !== 'string') return undefined;
  const rowMapper = parts.createRowMapper();
  const pushed = parts.rename ? parts.rename(record) : record;
  const drafts = [...rowMapper.push(pushed), ...rowMapper.end()];
  const draft = drafts.find((made) => made.kind === 'product' && made.record === pushed);
  if (draft?.kind !== 'product') return undefined;
  const fields = { ...draft.fields };
  if (parts.compiled) parts.compiled.apply(record, fields);
  const key = fields[matchBy];
  // U+FFFD stands where the bytes were (open-source.ts): such a key is not the file's. A key that
  // shows nothing (invisible-text.ts) is none.
  return typeof key === 'string' && key !== '' && !key.includes('\uFFFD') && !isInvisibleKey(key)
    ? key
    : undefined;
}
