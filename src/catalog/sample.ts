import { relay } from '../async-relay.js';
import { SAMPLE_RECORDS } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';

/**
 * Reads the first `count` records of a source ahead, for detection, and gives back the whole
 * source, those records first: nothing is read twice and nothing is lost. Memory: `count` records.
 */
export async function peekRecords(
  records: AsyncIterable<SourceRecord>,
  count = SAMPLE_RECORDS,
): Promise<{ sample: SourceRecord[]; records: AsyncIterable<SourceRecord> }> {
  const iterator = records[Symbol.asyncIterator]();
  const sample: SourceRecord[] = [];
  let done = false;
  while (sample.length < count) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    sample.push(next.value);
  }
  // A source that ended within the sample is not read again. A consumer that stops early (an
  // interrupt) closes the source, as it would without the peek.
  const rest: AsyncIterator<SourceRecord> = done
    ? { next: async () => ({ done: true, value: undefined }) }
    : iterator;
  const all = relay(rest, { first: sample });
  return { sample: sample.filter((record) => record.problem === undefined), records: all };
}
