/** UTF-8 byte rules (RFC 3629): shared by the decoder and the encoding detection. */

/** The length of the valid UTF-8 sequence at `i` (1–4), or 0 when the byte there starts none. */
export function sequenceLength(bytes: Buffer, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const need = leadLength(b0);
  if (need === 0 || i + need > bytes.length) return 0;
  for (let k = 1; k < need; k++) {
    if (!continues(b0, k, bytes[i + k]!)) return 0;
  }
  if (b0 === 0xef && bytes[i + 1] === 0xb7 && bytes[i + 2]! >= 0x90 && bytes[i + 2]! <= 0xaf) return 0;
  return need;
}

/** How many bytes a sequence starting with `b0` has; 0 for a byte that starts none. */
function leadLength(b0: number): number {
  if (b0 >= 0xc2 && b0 <= 0xdf) return 2;
  if (b0 >= 0xe0 && b0 <= 0xef) return 3;
  if (b0 >= 0xf0 && b0 <= 0xf4) return 4;
  return 0;
}

/** Whether `byte` may be the `k`-th byte (1-based after the lead) of a sequence led by `b0`. */
function continues(b0: number, k: number, byte: number): boolean {
  if (k === 1) {
    if (b0 === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
    if (b0 === 0xed) return byte >= 0x80 && byte <= 0x9f;
    if (b0 === 0xf0) return byte >= 0x90 && byte <= 0xbf;
    if (b0 === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  }
  return byte >= 0x80 && byte <= 0xbf;
}

/** Bytes at the end that begin a valid sequence whose last bytes are still to come (0–3). */
export function incompleteTail(bytes: Buffer): number {
  for (let k = 1; k <= 3 && k <= bytes.length; k++) {
    const at = bytes.length - k;
    const byte = bytes[at]!;
    if (byte >= 0x80 && byte <= 0xbf) continue;
    const need = leadLength(byte);
    if (need <= k) return 0;
    for (let j = 1; j < k; j++) if (!continues(byte, j, bytes[at + j]!)) return 0;
    return k;
  }
  return 0;
}

/** EF B7 90…AF: U+FDD0…U+FDEF, the characters marks are made of. */
export function hasMarkNoncharacter(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0xef); at !== -1 && at + 2 < bytes.length; at = bytes.indexOf(0xef, at + 1)) {
    if (bytes[at + 1] === 0xb7 && bytes[at + 2]! >= 0x90 && bytes[at + 2]! <= 0xaf) return true;
  }
  return false;
}
