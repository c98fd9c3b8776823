import { SHOWN_FIELD_LENGTH, SHOWN_FIELDS } from '../defaults.js';
import { escapedName } from './invisible-text.js';

/**
 * The source's fields as the message lists them. A field's name is the source's header, and a file
 * that is no catalog (a keys or .env file given by mistake) has a `NAME=secret` line for a header:
 * a name holding `=`, or too long to be a column's, is counted, not shown, with the reason (a count
 * alone names nothing: a Markdown file's heading was "1 more not shown"); the list is capped.
 */
export function shownFields(available: readonly string[]): string {
  const plain = available.filter(mayShowField);
  // A header cell `\u200bsku` is not sku: its invisible character is written so (invisible-text.ts).
  const shown = plain.slice(0, SHOWN_FIELDS).map(escapedName);
  if (plain.length > shown.length) shown.push(`${plain.length - shown.length} more`);
  const kept = keptBack(available);
  if (shown.length === 0 && kept === '') return 'none';
  return [shown.join(', '), kept].filter((part) => part !== '').join('; ');
}

/** A field name a message may quote: no `=`, no control character, no longer than a column's. */
export function mayShowField(field: string): boolean {
  return whyNotShown(field) === undefined;
}

function whyNotShown(field: string): string | undefined {
  if (field.includes('=')) return 'holding "="';
  if (/[\x00-\x1f\x7f-\x9f]/.test(field)) return 'holding a control character';
  if (field.length > SHOWN_FIELD_LENGTH) return `longer than ${SHOWN_FIELD_LENGTH} characters`;
  return undefined;
}

/** `3 not shown: 2 holding "=", 1 longer than 40 characters`; empty when every name may be shown. */
function keptBack(available: readonly string[]): string {
  const reasons = new Map<string, number>();
  for (const field of available) {
    const why = whyNotShown(field);
    if (why !== undefined) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  if (reasons.size === 0) return '';
  let count = 0;
  for (const n of reasons.values()) count += n;
  const whys = reasons.size === 1 ? [...reasons.keys()] : [...reasons].map(([why, n]) => `${n} ${why}`);
  return `${count} not shown: ${whys.join(', ')}`;
}
