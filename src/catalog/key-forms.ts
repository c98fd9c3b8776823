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
