import iconv from 'iconv-lite';

/**
 * Decodes bytes to text with iconv-lite (Node's TextDecoder maps Windows-1252 0x80–0x9F to C1 controls,
 * so `€` and `–` would be lost). The decoder keeps a character cut between two chunks until its last
 * byte arrives, and drops a byte order mark.
 */
export async function* decodeChunks(
  chunks: AsyncIterable<Uint8Array>,
  encoding: string,
): AsyncGenerator<string> {
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  for await (const chunk of chunks) {
    const text = decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Decodes a whole buffer (the sniffed prefix) for detection. */
export function decodeAll(bytes: Buffer, encoding: string): string {
  return iconv.decode(bytes, encoding, { stripBOM: true });
}

export function isKnownEncoding(encoding: string): boolean {
  return iconv.encodingExists(encoding);
}

/**
 * Line breaks as `\n` only. csv-parse miscounts lines when a quoted field holds `\r\n`, and the
 * `line` of each record must be the physical line; `\r\n` and a lone `\r` each still count as one line.
 */
export async function* normalizeLineBreaks(text: AsyncIterable<string>): AsyncGenerator<string> {
  let pendingCr = false;
  for await (let chunk of text) {
    if (pendingCr) chunk = `\r${chunk}`;
    pendingCr = chunk.endsWith('\r');
    if (pendingCr) chunk = chunk.slice(0, -1);
    if (chunk) yield chunk.replace(/\r\n?/g, '\n');
  }
  if (pendingCr) yield '\n';
}
