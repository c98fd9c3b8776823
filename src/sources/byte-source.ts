import { type FileHandle, open } from 'node:fs/promises';
import { READ_CHUNK_BYTES } from '../defaults.js';
import { sourceError } from './source-error.js';

/** The raw bytes of a source, whatever it is, and how to name it to the user. */
export interface ByteSource {
  /** How messages name the source: the path, "standard input", or the URL without credentials or query. */
  label: string;
  /** Lower-case extension of the path or URL path, without the dot; '' when none. */
  extension: string;
  /** The whole source's length in bytes, when known before reading it (a file; a feed's Content-Length). */
  size?: number;
  /** A feed's Content-Length as sent, compressed or not: part of its content's fingerprint. */
  wireLength?: number;
  chunks: AsyncIterator<Uint8Array>;
  /** Releases the file or socket; safe to call twice. */
  close(): Promise<void>;
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
};

/**
 * How a file is opened: `open(path, 'r')`, or the caller's own (a job file's source is judged on the
 * descriptor it is then read from). What it throws without a system error code is its refusal, as is.
 */
export type FileOpener = (path: string) => Promise<FileHandle>;

/** Opens a file; a missing or unreadable file is a `SourceError` that names it, never a stack. */
export async function openFile(
  path: string,
  extension: string,
  opener: FileOpener = (at) => open(at, 'r'),
): Promise<ByteSource> {
  const handle = await opener(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException | undefined)?.code === undefined) throw error;
    throw sourceError(`cannot read ${path}`, describeFileError(error));
  });
  const info = await handle.stat();
  if (info.isDirectory()) {
    await handle.close();
    throw sourceError(`cannot read ${path}`, FILE_ERRORS.EISDIR!);
  }
  const stream = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  const chunks = readChunks(stream, path);
  let closed = false;
  return {
    label: path,
    extension,
    ...(info.isFile() ? { size: info.size } : {}),
    chunks,
    async close() {
      if (closed) return;
      closed = true;
      stream.destroy();
      await handle.close().catch(() => undefined);
    },
  };
}

/** Reads standard input (or the stream given for `-`). */
export function openStream(stream: NodeJS.ReadableStream, label: string): ByteSource {
  const chunks = readChunks(stream, label);
  return {
    label,
    extension: '',
    chunks,
    async close() {
      await chunks.return?.(undefined);
      if ('destroy' in stream && typeof stream.destroy === 'function' && stream !== process.stdin) {
        stream.destroy();
      }
    },
  };
}

async function* readChunks(stream: NodeJS.ReadableStream, label: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  } catch (error) {
    throw sourceError(`cannot read ${label}`, describeFileError(error));
  }
}

function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && FILE_ERRORS[code]) return FILE_ERRORS[code];
  return error instanceof Error ? error.message : String(error);
}
