import { SHOWN_FIELD_LENGTH, SHOWN_FIELDS } from '../defaults.js';

/**
 * The source's fields as the message lists them. A field's name is the source's header, and a file
 * that is no catalog (a keys or .env file given by mistake) has a `NAME=secret` line for a header:
 * a name holding `=`, or too long to be a column's, is counted, not shown; the list is capped.
 */
export function shownFields(available: readonly string[]): string {
  const plain = available.filter(mayShowField);
  const shown = plain.slice(0, SHOWN_FIELDS);
  const hidden = available.length - shown.length;
  if (shown.length === 0 && hidden === 0) return 'none';
  const more = hidden === 0 ? '' : `${shown.length === 0 ? '' : ', '}${hidden} more not shown`;
  return `${shown.join(', ')}${more}`;
}

/** A field name a message may quote: no `=`, no control character, no longer than a column's. */
export function mayShowField(field: string): boolean {
  return !field.includes('=') && field.length <= SHOWN_FIELD_LENGTH && !/[\x00-\x1f\x7f-\x9f]/.test(field);
}
