import { createHash } from 'node:crypto';
import { SNIFF_BYTES } from '../defaults.js';
import type { Sniffed } from './sniff.js';

/**
 * What tells one read of a feed from another before its run is queued (the run's source identity,
 * prepare-run.ts): the source is streamed as it is queued, so all there is by then is its first
 * bytes, sniffed for detection. A digest of exactly the first SNIFF_BYTES (64 KiB) as the readers
 * get them (inflated; the sniff may hold a little more, as the chunks fell), and:
 * - a source that ended within them: nothing more, the digest is of the whole content;
 * - a longer one: the length the server declared on the wire (Content-Length, compressed or not).
 * Limit: two reads whose first 64 KiB and declared length are the same (or with no length declared,
 * a chunked answer) are taken for the same content, though they differ further on. A server's
 * ETag or Last-Modified is not used: the content decides, not what the server says of it.
 */
export function contentFingerprint(
  sniffed: Pick<Sniffed, 'prefix' | 'complete'>,
  wireLength: number | undefined,
): string {
  const digest = createHash('sha256').update(sniffed.prefix.subarray(0, SNIFF_BYTES)).digest('hex');
  if (sniffed.complete) return `whole:${digest}`;
  return `first-${SNIFF_BYTES}:${digest}:${wireLength ?? 'length unknown'}`;
}
