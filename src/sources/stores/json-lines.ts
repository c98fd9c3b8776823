import type { IncomingMessage } from 'node:http';
import { formatDuration } from '../../duration.js';
import { SourceError, sourceError } from '../source-error.js';

/**
 * The lines of a streamed answer, each at most `maxLineBytes` (`--max-record-bytes`): only the line
 * being read is held. No byte for `timeoutMs` ends the read.
 */
export async function* linesOf(
  answer: IncomingMessage,
  label: string,
  maxLineBytes: number,
  timeoutMs: number,
): AsyncGenerator<string> {
  answer.setTimeout(timeoutMs, () =>
    answer.destroy(
      sourceError(label, `the result file stalled for ${formatDuration(timeoutMs)} (--source-timeout)`),
    ),
  );
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  try {
    for await (const chunk of answer) {
      pending += decoder.decode(chunk as Buffer, { stream: true });
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
    answer.destroy();
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield pending;
}
