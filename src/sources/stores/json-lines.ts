import type { IncomingMessage } from 'node:http';
import { thousands } from '../../thousands.js';
import { SourceError, sourceError } from '../source-error.js';
import { StoreStall } from './store-stall.js';

/**
 * The lines of a streamed answer, each at most `maxLineBytes` (`--max-record-bytes`): only the line
 * being read is held. Less than 1 KiB in any window of `timeoutMs` ends the read (store-stall.ts).
 * `expected`: the answer's size as its source gave it elsewhere (`by` names where); an answer of
 * another size ends the read before its last line (a line cut there may read as whole JSON).
 */
export async function* linesOf(
  answer: IncomingMessage,
  label: string,
  maxLineBytes: number,
  timeoutMs: number,
  expected: { bytes: number; by: string } | null = null,
): AsyncGenerator<string> {
  const stall = new StoreStall(label, timeoutMs, 'the result file');
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let bytes = 0;
  try {
    for await (const chunk of stall.chunksOf(answer)) {
      bytes += chunk.length;
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() !== '') yield line;
        end = pending.indexOf('\n');
      }
      if (Buffer.byteLength(pending) > maxLineBytes)
        throw sourceError(
          label,
          `a line of the result file is longer than ${maxLineBytes} bytes (--max-record-bytes)`,
        );
    }
  } catch (error) {
    throw error instanceof SourceError
      ? error
      : sourceError(
          label,
          `the result file broke off: ${String((error as { code?: string }).code ?? error)}`,
        );
  } finally {
    stall.dispose();
    answer.destroy();
  }
  if (expected !== null && bytes !== expected.bytes)
    throw sourceError(
      label,
      `the result file ended after ${thousands(bytes)} of its ${thousands(expected.bytes)} bytes (${expected.by}): run again`,
    );
  pending += decoder.decode();
  if (pending.trim() !== '') yield pending;
}
