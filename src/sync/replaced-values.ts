import type { ProductFields } from '../interfaces.js';
import { type CompactValue, compactValue } from './compact-value.js';
import type { IndexedProduct, WriteMemory } from './diff.js';

/**
 * What one PUT of a run replaced, field by field: kept in the run's data (keys.ts, `replaced`) so
 * that `revert` can put the old values back, and only where the product still shows this write.
 * The sync core owns this record (it writes it with the PUT, row-writes.ts); revert/ only reads it.
 */
export interface ReplacedField {
  /** The value before the write, as the run's read of the products showed it (compact); null: none shown. */
  before: CompactValue | null;
  /** What the run sent (compact). */
  sent: CompactValue;
  /** The echo of what the API showed after the write, where it differs from `sent` (memoryAfterWrite). */
  echo?: string;
  /** The seller's id-map memory of the field before the write (what was sent, its echo): restored on revert. */
  memorySent?: CompactValue;
  memoryEcho?: string;
}

export interface ReplacedValues {
  /** The product's match key (its id-map entry). */
  key: string;
  fields: Record<string, ReplacedField>;
  /** The run did not read the product before writing (`--incremental` from its record): no `before`. */
  unread?: boolean;
}

/**
 * The record of one PUT: `changed` went out to `remote` (as the run's index held it before the
 * write), the id map held `memoryBefore` and holds `memoryAfter` since.
 */
export function replacedValues(
  key: string,
  changed: ProductFields,
  remote: IndexedProduct,
  memoryBefore: WriteMemory | undefined,
  memoryAfter: WriteMemory,
): ReplacedValues {
  const fields: Record<string, ReplacedField> = {};
  for (const [name, value] of Object.entries(changed)) {
    const sent = compactValue(value);
    if (sent === undefined) continue;
    const field: ReplacedField = { before: remote.values[name] ?? null, sent };
    const echo = memoryAfter.echo?.[name];
    if (echo !== undefined) field.echo = echo;
    const memorySent = memoryBefore?.sent[name];
    if (memorySent !== undefined) field.memorySent = memorySent;
    const memoryEcho = memoryBefore?.echo?.[name];
    if (memoryEcho !== undefined) field.memoryEcho = memoryEcho;
    fields[name] = field;
  }
  // An --incremental run that relied on its record diffed against an entry with no values.
  return Object.keys(remote.values).length === 0 ? { key, fields, unread: true } : { key, fields };
}

// Stored once per updated product, kept a week: short JSON, arrays by position, trailing nulls cut.
type StoredField = [
  before: CompactValue | null,
  sent: CompactValue,
  echo?: string | null,
  memorySent?: CompactValue | null,
  memoryEcho?: string | null,
];

export function encodeReplaced(replaced: ReplacedValues): string {
  const f: Record<string, StoredField> = {};
  for (const [name, field] of Object.entries(replaced.fields)) {
    const stored: StoredField = [
      field.before,
      field.sent,
      field.echo ?? null,
      field.memorySent ?? null,
      field.memoryEcho ?? null,
    ];
    while (stored.length > 2 && stored[stored.length - 1] === null) stored.pop();
    f[name] = stored;
  }
  return JSON.stringify({ k: replaced.key, f, ...(replaced.unread ? { u: 1 } : {}) });
}

/** Reads a stored record back; null for anything that is not one (Redis is not trusted). */
export function decodeReplaced(json: string): ReplacedValues | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.k !== 'string' || !isObject(parsed.f)) return null;
  const fields: Record<string, ReplacedField> = {};
  for (const [name, stored] of Object.entries(parsed.f)) {
    if (!Array.isArray(stored) || !isCompact(stored[1])) return null;
    const [before, sent, echo, memorySent, memoryEcho] = stored as unknown[];
    const field: ReplacedField = { before: isCompact(before) ? before : null, sent: sent as CompactValue };
    if (typeof echo === 'string') field.echo = echo;
    if (isCompact(memorySent)) field.memorySent = memorySent;
    if (typeof memoryEcho === 'string') field.memoryEcho = memoryEcho;
    fields[name] = field;
  }
  return parsed.u === 1 ? { key: parsed.k, fields, unread: true } : { key: parsed.k, fields };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCompact(value: unknown): value is CompactValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
