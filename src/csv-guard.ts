/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `@`, `-`, tab or CR as
 * a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`). A report quotes a source's keys and an API's reasons,
 * so each of its cells passes guardCell, which writes such a cell with a leading `'` (read as "text"
 * by spreadsheets). Every reader of this tool's own files takes it off again with unguardCell.
 */

/** A plain number: `-12.5`, `-3`, `-.5`, `-1e6`; a `-` before one is a sign, not a formula. */
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * True when a spreadsheet would read `value` as a formula (the OWASP rule, a negative number
 * excepted). Leading white space is looked past: an import that trims cells (LibreOffice's "Trim
 * spaces") reads ` =1+1` as `=1+1`.
 */
export function startsLikeFormula(value: string): boolean {
  const text = value.replace(LEADING_SPACE, '');
  const first = text[0];
  if (first === '=' || first === '+' || first === '@' || first === '\t' || first === '\r') return true;
  return first === '-' && !NUMBER.test(text);
}

/** Spaces and line feeds (tab and CR start a formula of their own). */
const LEADING_SPACE = /^[ \n]+/;

/**
 * The cells csv-stringify is told to quote besides QUOTED_MATCH: white space at a cell's start or
 * end, which a reader that trims would lose (a key `dup `), is kept inside quotes.
 */
export const EDGE_SPACE = /^\s|\s$/;

/** The separators a spreadsheet may split a line at, whichever its locale: `,` `;` tab `|`. */
export const SEPARATORS = /[,;\t|]/;
const SEPARATOR_AT = /[,;\t|]/g;
/** The cells csv-stringify is told to quote: one holding any separator stays one cell in every locale. */
export const QUOTED_MATCH = SEPARATORS;

/**
 * The cell as written: a value that starts like a formula gets a leading `'`. So does a value that
 * already starts with `'`s before such a start (`'=x`), so that unguardCell gives back every value
 * exactly; any other value is written as is (`-12.5`, `'Tis`, `SKU-1`). The same holds after each
 * separator inside the value (`X;=1+2` is written `X;'=1+2`): a spreadsheet whose locale splits at
 * that separator (a `,` report opened where `;` separates, or the converse) would otherwise read a
 * cell `=1+2` there.
 */
export function guardCell(value: string): string {
  const inner = SEPARATORS.test(value) ? guardAfterSeparators(value) : value;
  return startsLikeFormula(inner.replace(/^'+/, '')) ? `'${inner}` : inner;
}

/** The value a guarded cell stands for: the inverse of guardCell, for any reader of this tool's CSV. */
export function unguardCell(cell: string): string {
  if (!cell.includes("'")) return cell;
  const outer = cell.startsWith("'") && startsLikeFormula(cell.replace(/^'+/, '')) ? cell.slice(1) : cell;
  return SEPARATORS.test(outer) ? unguardAfterSeparators(outer) : outer;
}

function guardAfterSeparators(value: string): string {
  const last = lastSeparator(value);
  return value.replace(SEPARATOR_AT, (separator, at: number) =>
    formulaAfter(value, at + 1, last) ? `${separator}'` : separator,
  );
}

function unguardAfterSeparators(cell: string): string {
  const last = lastSeparator(cell);
  let out = '';
  let from = 0;
  for (const match of cell.matchAll(SEPARATOR_AT)) {
    const next = (match.index as number) + 1;
    if (cell[next] !== "'" || !formulaAfter(cell, next, last)) continue;
    out += cell.slice(from, next);
    from = next + 1;
  }
  return out + cell.slice(from);
}

function lastSeparator(text: string): number {
  let last = -1;
  for (const match of text.matchAll(SEPARATOR_AT)) last = match.index as number;
  return last;
}

/**
 * True when the text from `at` (its leading `'`s skipped) starts like a formula. A `-` is a sign
 * only before a plain number that runs to the end of the cell: one with a separator after it is a
 * formula start in some locale (`X;-1,2+cmd`). `last`: the cell's last separator.
 */
function formulaAfter(text: string, at: number, last: number): boolean {
  let start = at;
  while (text[start] === "'") start++;
  // White space after the `'`s is looked past too, as startsLikeFormula does (a trimming import).
  while (text[start] === ' ' || text[start] === '\n') start++;
  const first = text[start];
  if (first === '=' || first === '+' || first === '@' || first === '\t' || first === '\r') return true;
  return first === '-' && (start < last || !NUMBER.test(text.slice(start)));
}
