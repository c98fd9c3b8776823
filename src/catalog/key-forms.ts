import { SPACE_CLASS, trimCell } from './cell-text.js';
import { shownKey } from './invisible-text.js';

/**
 * The other ways a match key can be written in Unicode: `é` as one character (the composed form,
 * NFC) or as `e` and a combining accent (the decomposed form, NFD). Two exports of one catalog can
 * differ so (a file saved on a Mac, an ERP's export), and the seller sees the same SKU; matched
 * byte for byte, the row's product was created a second time. A key is looked up as it is written
 * first, then in these forms (sync/remote-index.ts), so keys already recorded in either form still
 * match and nothing recorded has to be rewritten.
 */
export function otherForms(key: string): string[] {
  // Text without a letter outside ASCII has one form only.
  if (!NOT_ASCII.test(key)) return [];
  const forms = new Set([key.normalize('NFC'), key.normalize('NFD')]);
  forms.delete(key);
  return [...forms];
}

/**
 * The form two keys are compared in within one source (the duplicate-key check, validate.ts): two
 * rows whose keys differ only so are one product, and the second is a duplicate.
 */
export function comparableKey(key: string): string {
  return NOT_ASCII.test(key) ? key.normalize('NFC') : key;
}

const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Whether a listed key (`theirs`, as the product shows it) is `key` with white space at its edges:
 * `SP ` for `SP`. Cells and listed keys are both read without it (cell-text.ts, sync/listed-keys.ts),
 * so the row was matched to that product by it; sending `SP` would change the seller's SKU on the
 * marketplace to one their other systems (the ERP the file came from, an order import) do not
 * know, as stripping an invisible character would (docs/sources.md). The diff keeps it (diff.ts).
 */
export function edgeSpacedKey(key: string, theirs: unknown): theirs is string {
  return typeof theirs === 'string' && theirs.length > key.length && trimCell(theirs) === key;
}

/**
 * A listed key with white space at its edges as a note shows it: quoted, so that a space shows, any
 * other white space written as its escape (`"NB\u00a0"`), and where it is (` (a space at its end)`),
 * as a former key form's words are (sync/former-key-forms.ts).
 */
export function listedKeyWords(key: string): { shown: string; why: string } {
  const start = key.length - key.replace(LEADING_SPACES, '').length;
  const end = key.length - key.replace(TRAILING_SPACES, '').length;
  const count = (n: number) => (n === 1 ? 'a space' : `${n} spaces`);
  const where =
    start > 0 && end > 0
      ? 'spaces at its start and end'
      : start > 0
        ? `${count(start)} at its start`
        : `${count(end)} at its end`;
  return { shown: `"${shownKey(key)}"`, why: ` (${where})` };
}

const LEADING_SPACES = new RegExp(`^${SPACE_CLASS}+`);
const TRAILING_SPACES = new RegExp(`${SPACE_CLASS}+$`);
