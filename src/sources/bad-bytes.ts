/**
 * Bytes that are not valid in a file's encoding never become text that is sent (U+FFFD or
 * mojibake). The decoder puts a mark in their place that carries the position of the first of them,
 * and a record holding a mark is invalid with a reason naming that byte. The mark is made of
 * Unicode noncharacters (U+FDD0…U+FDEF), which no catalog holds and which the UTF-8 decoder itself
 * refuses in the source, so a mark in the text always means bytes that could not be decoded.
 */

const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
const DIGIT_ZERO = 0xfde0;
const MARK = /\uFDD0([\uFDE0-\uFDE9]+)\uFDD1/;
const MARKS = /\uFDD0[\uFDE0-\uFDE9]*\uFDD1?/g;

/** The mark standing for bad bytes starting at 1-based byte `byte` of the (decompressed) source. */
export function badBytesMark(byte: number): string {
  let digits = '';
  for (const digit of String(byte)) digits += String.fromCharCode(DIGIT_ZERO + Number(digit));
  return OPEN + digits + CLOSE;
}

/** The 1-based byte number carried by the first mark in `text`, or undefined when it holds none. */
export function badByteIn(text: string): number | undefined {
  if (!text.includes(OPEN)) return undefined;
  const match = MARK.exec(text);
  if (!match) return undefined;
  let byte = 0;
  for (const char of match[1]!) byte = byte * 10 + (char.charCodeAt(0) - DIGIT_ZERO);
  return byte;
}

/** The row's reason, e.g. "bytes not UTF-8 at byte 211: re-export as UTF-8 or pass --encoding". */
export function badBytesReason(byte: number, encoding: string): string {
  return `bytes not ${encodingName(encoding)} at byte ${byte}: re-export as UTF-8 or pass --encoding`;
}

/** Text with each mark replaced: a message shows `<bad bytes>`, a report U+FFFD. */
export function withoutMarks(text: string, replacement = '<bad bytes>'): string {
  return text.includes(OPEN) ? text.replace(MARKS, replacement) : text;
}

/** The first bad byte in a record's values or column names; undefined when it has none. */
export function badByteInRecord(values: Record<string, string>): number | undefined {
  let first: number | undefined;
  for (const [key, value] of Object.entries(values)) {
    for (const text of [key, value]) {
      const byte = badByteIn(text);
      if (byte !== undefined && (first === undefined || byte < first)) first = byte;
    }
  }
  return first;
}

function encodingName(encoding: string): string {
  const lower = encoding.toLowerCase().replace(/_/g, '-');
  if (lower === 'utf8' || lower === 'utf-8') return 'UTF-8';
  if (lower === 'cp1252' || lower === 'windows1252' || lower === 'windows-1252') return 'Windows-1252';
  return encoding;
}
