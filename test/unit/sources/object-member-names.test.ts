import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../../src/interfaces.js';
import { openAndRead, stdinOf } from './helpers.js';

const readText = (text: string) => openAndRead('-', { stdin: stdinOf(text, 7) });

/** A record's value under `name` only if the record holds it itself (not Object's member of that name). */
const own = (record: SourceRecord | undefined, name: string) =>
  record && Object.hasOwn(record.values, name) ? record.values[name] : 'absent';

// A column named as one of Object's own members was lost (`__proto__`: assigning it sets the
// prototype) or, read from a record without it, came back as Object's member instead of nothing.
describe('a column named __proto__, constructor or toString', () => {
  it('is a CSV value like any other, and absent from a row that has no cell for it', async () => {
    const { records } = await readText('sku,__proto__,constructor\nA-1,red,oak\nA-2\n');
    expect(records.map((record) => own(record, '__proto__'))).toEqual(['red', 'absent']);
    expect(records.map((record) => own(record, 'constructor'))).toEqual(['oak', 'absent']);
    const short = records[1] as SourceRecord;
    // biome-ignore lint/suspicious/noProto: the name a record must not answer to is the point here.
    expect([short.values.__proto__, short.values.constructor, short.values.toString]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(JSON.parse(JSON.stringify(records[0]?.values))).toEqual({
      sku: 'A-1',
      ['__proto__']: 'red',
      constructor: 'oak',
    });
  });

  it('is a JSON, NDJSON or XML value like any other', async () => {
    const json = await readText(
      '[{"sku": "A-1", "__proto__": "red", "toString": {"x": "1"}}, {"sku": "A-2"}]',
    );
    expect(json.records.map((record) => own(record, '__proto__'))).toEqual(['red', 'absent']);
    expect(own(json.records[0], 'toString.x')).toBe('1');
    expect(json.records[1]?.values.toString).toBeUndefined();

    const ndjson = await readText('{"sku": "A-1", "__proto__": "red"}\n{"sku": "A-2"}\n');
    expect(ndjson.records.map((record) => own(record, '__proto__'))).toEqual(['red', 'absent']);

    const xml = await readText(
      '<?xml version="1.0"?><rss><channel><item><id>A-1</id><__proto__>red</__proto__></item><item><id>A-2</id></item></channel></rss>',
    );
    expect(xml.opened.format).toBe('xml');
    expect(xml.records.map((record) => own(record, '__proto__'))).toEqual(['red', 'absent']);
    expect(xml.records[1]?.values.constructor).toBeUndefined();
  });
});
