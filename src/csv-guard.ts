/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `@`, `-`, tab or CR as
 * a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`). A report quotes a source's keys and an API's reasons,
 * so each of its cells passes guardCell, which writes such a cell with a leading `'` (read as "text"
 * by spreadsheets). Every reader of this tool's own files takes it off again with unguardCell.
 */

/** A plain number: `-12.5`, `-3`, `-.5`, `-1e6`; a `-` before one is a sign, not a formula. */
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** True when a spreadsheet would read `value` as a formula (the OWASP rule, a negative number excepted). */
export function startsLikeFormula(value: string): boolean {
  const first = value[0];
  if (first === '=' || first === '+' || first === '@' || first === '\t' || first === '\r') return true;
  return first === '-' && !NUMBER.test(value);
}

/**
 * The cell as written: a value that starts like a formula gets a leading `'`. So does a value that
 * already starts with `'`s before such a start (`'=x`), so that unguardCell gives back every value
 * exactly; any other value is written as is (`-12.5`, `'Tis`, `SKU-1`).
 */
export function guardCell(value: string): string {
  return startsLikeFormula(value.replace(/^'+/, '')) ? `'${value}` : value;
}

/** The value a guarded cell stands for: the inverse of guardCell, for any reader of this tool's CSV. */
export function unguardCell(cell: string): string {
  return cell.startsWith("'") && startsLikeFormula(cell.replace(/^'+/, '')) ? cell.slice(1) : cell;
}
