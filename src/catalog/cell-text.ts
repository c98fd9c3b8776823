/**
 * A cell's text as every preset reads it: without the white space at its edges (spaces, tabs, a
 * no-break space an ERP or a spreadsheet leaves after a value). `String.prototype.trim` strips a
 * byte order mark too (U+FEFF is white space to JavaScript): a SKU cell `\ufeffZ4` was sent as `Z4`,
 * unsaid, where every other invisible character at a key's edge refuses its row (invisible-text.ts).
 * So the mark is kept, and the key check names it. The file's own byte order mark, at its very
 * start, is the decoder's (sources/decode.ts) and the header's (csv-header.ts): it never reaches a cell.
 */
export function trimCell(text: string): string {
  const trimmed = text.trim();
  // Nearly every cell: nothing trimmed, or no byte order mark anywhere. A cell of only white space
  // and such marks stays blank, as before: a lone one in a key cell is no key (invisible-text.ts).
  if (trimmed.length === text.length || trimmed === '' || !text.includes(BOM)) return trimmed;
  return text.replace(EDGE_SPACES, '');
}

/** White space as `trim` knows it (ECMAScript's WhiteSpace and LineTerminator), but U+FEFF. */
export const SPACE_CLASS =
  '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const EDGE_SPACES = new RegExp(`^${SPACE_CLASS}+|${SPACE_CLASS}+$`, 'g');
const BOM = '\ufeff';
