import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What the requester asks for: the encodings fetch asked for, so answers stay as small on the wire. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Statuses and methods whose answers have no body to decode (as fetch treats them). */
const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

// One decoder for every answer: `decode` without `stream` keeps no state between calls.
const utf8 = new TextDecoder();

/**
 * Reads an answer's body whole, decoded, or gives null once more than `max` decoded bytes came:
 * then the answer and its socket are destroyed (a compression bomb is cut off like any long answer).
 * Rejects with the first error of the answer or its decoding (a reset, a truncated gzip stream).
 */
export function readBody(method: string, response: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const decoders =
      method === 'HEAD' || NO_BODY_STATUSES.has(response.statusCode ?? 0) ? [] : decodersOf(response);
    let stream: Readable = response;
    for (const decoder of decoders) stream = stream.pipe(decoder);
    const stop = (): void => {
      for (const decoder of decoders) decoder.destroy();
      response.destroy();
    };
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stream.removeAllListeners('data');
        stop();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () => resolve(utf8.decode(Buffer.concat(chunks, size))));
    const fail = (error: Error): void => {
      stop();
      reject(error);
    };
    response.once('error', fail);
    for (const decoder of decoders) decoder.once('error', fail);
  });
}

/**
 * The decoders for `Content-Encoding`, last coding first. An unknown coding leaves the body as it
 * came, as fetch does.
 */
function decodersOf(response: IncomingMessage): Transform[] {
  const header = response.headers['content-encoding'];
  if (!header) return [];
  const codings = header
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  // Servers end gzip and deflate streams loosely; a sync flush takes what came (fetch does the same).
  const loose = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  const decoders: Transform[] = [];
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(loose));
    else if (coding === 'deflate') decoders.push(createInflate(loose));
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else return [];
  }
  return decoders;
}
