/**
 * The JSON text with each number that `JSON.parse` would not give back as written made a string of
 * its source text (`"price":1.50` → `"price":"1.50"`), so that numbers are read as written, as the
 * JSON-array reader's tokenizer reads them (stream-json, `numberAsString`): `1.50` stays `1.50` (a
 * SKU matches the CSV's), `90071992547409931` keeps its digits, `1.25e1` is read as that text. A
 * number `String` gives back as written (`12`, `1.5`: numberToken) is left as it is, and a line
 * without any other (what JSON.stringify writes) is not copied at all. `JSON.parse` has no
 * other way to give a number's text on Node 20 (a reviver's `context.source` came later).
 *
 * Valid JSON stays valid and parses to the same value but for its numbers; invalid JSON stays
 * invalid, so the caller can parse the text as it was for its error (positions in the quoted text
 * would be off by the quotes added). That holds because only whole number tokens outside strings
 * are quoted, and a string stands wherever a number may, except as an object's key: a number
 * followed by `:` (never valid JSON) leaves the text as it is, as does any run of number
 * characters that is not one whole number (`01`, `1.`, `1-2`: never valid either).
 *
 * One pass, with no regular expression and no string made for a number left as it is; strings are
 * skipped with `indexOf`, so a line's cost is about its structure, not its text. The text is built
 * only when a number is quoted, from pieces cut around the numbers and joined with `"` (a rope of
 * `+=` would be flattened again by `JSON.parse`), a batch at a time: an 8 MiB line of 1.6 million
 * `1.50` peaked at 226 MB of RSS, where `JSON.parse` alone took 256 MB (and all pieces held at once,
 * 428 MB).
 */
export function quoteNumbers(json: string): string {
  let pieces: string[] | undefined;
  /** Pieces already joined, a batch at a time: a line of a million numbers never holds them all. */
  let batches: string[] | undefined;
  let copied = 0;
  const end = json.length;
  for (let at = 0; at < end; at++) {
    const char = json.charCodeAt(at);
    if (char === QUOTE) {
      const close = stringEnd(json, at);
      if (close === -1) return json;
      at = close;
    } else if (char === MINUS || isDigit(char)) {
      const token = numberToken(json, at);
      if (token === undefined || followedByColon(json, token.stop)) return json;
      if (!token.readsBack) {
        // Cut before and after the number; the cuts are joined with `"`.
        pieces ??= [];
        pieces.push(json.slice(copied, at), json.slice(at, token.stop));
        copied = token.stop;
        if (pieces.length === BATCH) {
          batches ??= [];
          batches.push(pieces.join('"'));
          pieces = [];
        }
      }
      at = token.stop - 1;
    }
  }
  if (pieces === undefined) return json;
  pieces.push(json.slice(copied));
  if (batches === undefined) return pieces.join('"');
  batches.push(pieces.join('"'));
  return batches.join('"');
}

/** Pieces joined at once: 1,024 numbers' worth. */
const BATCH = 2048;

const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;

function isDigit(char: number): boolean {
  return char >= 0x30 && char <= 0x39;
}

/** Past the digits from `at`. */
function digitsEnd(json: string, at: number): number {
  let stop = at;
  while (isDigit(json.charCodeAt(stop))) stop++;
  return stop;
}

/**
 * The number token starting at `at` (RFC 8259: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
 * undefined when the run of number characters there is not one (`01`, `1.`, `1e`, `1.2.3`, `1-2`).
 * `readsBack`: `JSON.parse` gives it exactly and `String` writes it back as it was, so it needs no
 * quotes: a whole number of up to 15 digits but `-0`; a decimal of up to 15 significant digits
 * without a 0 at its end (`1.5`, not `1.50`) and not below 1e-6 (`0.0000001` is written `1e-7`).
 * Such a decimal is the shortest text of its double, which is what `String` writes: two decimals
 * of 15 digits are further apart than a double's precision. No exponent reads back.
 */
function numberToken(json: string, at: number): { stop: number; readsBack: boolean } | undefined {
  const sign = json.charCodeAt(at) === MINUS ? 1 : 0;
  const first = json.charCodeAt(at + sign);
  if (!isDigit(first)) return undefined;
  const zero = first === ZERO;
  let stop = zero ? at + sign + 1 : digitsEnd(json, at + sign + 1);
  const whole = stop - at - sign;
  let readsBack = whole <= 15 && !(sign === 1 && zero);
  if (json.charCodeAt(stop) === 0x2e) {
    const end = digitsEnd(json, stop + 1);
    const digits = end - stop - 1;
    if (digits === 0) return undefined;
    let zeros = 0;
    if (zero) while (json.charCodeAt(stop + 1 + zeros) === ZERO) zeros++;
    const significant = zero ? digits - zeros : whole + digits;
    readsBack = significant <= 15 && zeros < 6 && json.charCodeAt(end - 1) !== ZERO;
    stop = end;
  }
  const e = json.charCodeAt(stop);
  if (e === 0x65 || e === 0x45) {
    const signed = json.charCodeAt(stop + 1) === 0x2b || json.charCodeAt(stop + 1) === MINUS ? 1 : 0;
    const exponent = digitsEnd(json, stop + 1 + signed);
    if (exponent === stop + 1 + signed) return undefined;
    stop = exponent;
    readsBack = false;
  }
  return isNumberChar(json.charCodeAt(stop)) ? undefined : { stop, readsBack };
}

/** The index of the `"` that closes the string opening at `open`, or -1 when it is not closed. */
function stringEnd(json: string, open: number): number {
  let close = json.indexOf('"', open + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (json.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = json.indexOf('"', close + 1);
  }
  return -1;
}

/** Digits, `.`, `e`, `E`, `+`, `-`: what a number token is made of. */
function isNumberChar(char: number): boolean {
  return isDigit(char) || char === 0x2e || char === 0x65 || char === 0x45 || char === 0x2b || char === MINUS;
}

function followedByColon(json: string, from: number): boolean {
  for (let at = from; at < json.length; at++) {
    const char = json.charCodeAt(at);
    if (char === 0x3a) return true;
    // JSON's whitespace: space, tab, LF, CR.
    if (char !== 0x20 && char !== 0x09 && char !== 0x0a && char !== 0x0d) return false;
  }
  return false;
}

/**
 * `JSON.parse`, each number of whose value `String` writes as its source text (quoteNumbers): a
 * string, or a number that reads back as written. On invalid JSON it throws the error of the text
 * as written, whose positions are the text's own.
 */
export function parseNumbersAsText(json: string): unknown {
  try {
    return JSON.parse(quoteNumbers(json));
  } catch (quotedError) {
    JSON.parse(json);
    // Not reached: quoteNumbers keeps valid JSON valid. Were it, the quoted text's error stands.
    throw quotedError;
  }
}
