import type { ProductUpsert } from '../interfaces.js';
import { excelText } from '../sources/csv-header.js';

/**
 * Upgrading over Excel text keys (docs/sources.md, "Upgrading"). A CSV cell of Excel text,
 * `="00123"`, is read as its text, `00123` (sources/csv-header.ts); an earlier version read it as
 * written, so the products it made have the SKU `="00123"` and the id map records them under that
 * key. A row whose key was so read (ProductUpsert.excelKey) and that found no product under its key
 * finds the one listed or recorded under the key as written (former-key-forms.ts): that product is
 * the row's. Only such a row: the cell it was read from is the key the earlier version sent. An
 * entry of FORMER_KEY_FORMS (former-key-forms.ts, which checks its shape).
 */
export const EXCEL_TEXT = {
  name: 'excelText',
  listed: 'excelTextListed',
  index: 'excel-text',
  // d1ba056 kept no such hash: it asked keyToId for the key as written (former-key-forms.ts).
  indexed: 'excelTextIndexed',
  /** `="…`: two characters. */
  is: (key: string) => key.charCodeAt(0) === EQUALS && key.charCodeAt(1) === QUOTE,
  // A listed key that is no whole string literal (`="a"&"b"`) is no cell's: no row finds it.
  clean: (key: string) => excelText(key) ?? '',
  asks: (upsert: ProductUpsert) => (upsert.excelKey === undefined ? undefined : excelText(upsert.excelKey)),
  recorded: (upsert: ProductUpsert) => (upsert.excelKey === undefined ? [] : [upsert.excelKey]),
  words: (key: string) => ({ shown: `${key} (Excel text)`, why: '' }),
} as const;

const EQUALS = 0x3d;
const QUOTE = 0x22;
