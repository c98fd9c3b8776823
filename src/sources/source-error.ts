/**
 * A source that cannot be read as a catalog: a missing file, a feed that answered 404, a binary file,
 * an unclosed quote. The message is one line for the user (an unreadable source is exit 2: README,
 * Exit codes);
 * it names the source and, where it helps, the line at fault. Never a stack trace.
 */
export class SourceError extends Error {
  override name = 'SourceError';
}

/** `catalog.csv: source is empty`: every message starts with the source it is about. */
export function sourceError(label: string, detail: string): SourceError {
  return new SourceError(`${label}: ${detail}`);
}
