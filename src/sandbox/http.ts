import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonAnswer } from './answers.js';

/** Larger bodies answer 400: no product needs a megabyte (spec 8.3: size limits "not shown"). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The whole body as text, or null when it is larger than MAX_BODY_BYTES (read to the end regardless). */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8');
}

export function writeAnswer(res: ServerResponse, answer: JsonAnswer): void {
  if (answer.body === undefined) {
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': '0' }).end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res
    .writeHead(answer.status, {
      ...answer.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
    })
    .end(text);
}
