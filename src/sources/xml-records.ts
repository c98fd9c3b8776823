import { SaxesParser } from 'saxes';
import { MAX_NESTING } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';
import { formatBytes, RecordMeter, sliceLength, slices, utf8Bytes } from './limits.js';
import { sourceError } from './source-error.js';
import type { ReaderOptions } from './types.js';
import { TOO_DEEP_TARGET, XmlDepthFilter } from './xml-depth-filter.js';

/** Root elements of the feeds Google Merchant Center reads: RSS 2.0, RSS 1.0 (RDF) and Atom. */
const FEED_ROOTS = new Set(['rss', 'RDF', 'feed', 'channel']);
const ITEM_ELEMENTS = new Set(['item', 'entry']);

interface Frame {
  name: string;
  text: string;
  hasChildren: boolean;
  href: string | undefined;
}

/**
 * Streams the items of a Merchant Center feed (`<item>` in RSS, `<entry>` in Atom) with saxes, one
 * item in memory at a time. Columns are local names (`g:price` → `price`); nested elements flatten to
 * dotted keys (`g:shipping/g:country` → `shipping.country`); a repeated element is a list (joinValues).
 * An item over `maxRecordBytes` stops the read; one nested deeper than `MAX_NESTING` levels (the
 * item is level 1) is an invalid row, its depths never reaching the parser (`XmlDepthFilter`).
 */
export async function* readXml(
  text: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<SourceRecord> {
  const { label, maxRecordBytes } = options;
  const parser = new SaxesParser({ position: true });
  const filter = new XmlDepthFilter(MAX_NESTING, (name) => ITEM_ELEMENTS.has(name));
  const meter = new RecordMeter(maxRecordBytes);
  const ready: SourceRecord[] = [];
  let root: string | undefined;
  let frames: Frame[] | undefined;
  let values = new Map<string, string[]>();
  let tooDeep = false;
  let itemLine = 0;
  let tagLine = 0;
  let row = 0;
  const overCap = () => `over ${formatBytes(maxRecordBytes)} (--max-record-bytes)`;
  const outside = () => {
    if (!frames) meter.progress();
  };

  parser.on('opentagstart', () => {
    tagLine = parser.line;
    outside();
  });
  parser.on('processinginstruction', (pi) => {
    if (pi.target !== TOO_DEEP_TARGET) return;
    if (!frames) {
      throw sourceError(
        label,
        `the XML nests deeper than ${MAX_NESTING} levels outside any item, at line ${parser.line}`,
      );
    }
    tooDeep = true;
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (root === undefined) {
      root = name;
      if (!FEED_ROOTS.has(name)) {
        throw sourceError(label, `the XML root is <${tag.name}>, not an RSS <rss> or Atom <feed> feed`);
      }
    }
    if (!frames) {
      if (ITEM_ELEMENTS.has(name)) {
        frames = [];
        values = new Map();
        tooDeep = false;
        itemLine = tagLine;
        meter.recordStarted();
      }
      return;
    }
    const parent = frames.at(-1);
    if (parent) parent.hasChildren = true;
    const href = tag.attributes.href;
    frames.push({ name, text: '', hasChildren: false, href: typeof href === 'string' ? href : undefined });
  });
  const addText = (chunk: string): void => {
    const frame = frames?.at(-1);
    if (frame) frame.text += chunk;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (!frames) {
      meter.progress();
      return;
    }
    const frame = frames.pop();
    if (!frame) {
      row++;
      if (meter.over) throw sourceError(label, `item ${row} (line ${itemLine}) is ${overCap()}`);
      meter.progress();
      ready.push(
        tooDeep
          ? {
              row,
              line: itemLine,
              values: namedValues(),
              problem: `item ${row} is nested deeper than ${MAX_NESTING} levels`,
            }
          : { row, line: itemLine, ...joinValues(values) },
      );
      frames = undefined;
      return;
    }
    if (frame.hasChildren) return;
    const key = [...frames.map((open) => open.name), frame.name].join('.');
    const value = frame.text.trim() || frame.href || '';
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  });

  const length = sliceLength(maxRecordBytes);
  try {
    for await (const chunk of text) {
      for (const slice of slices(chunk, length)) {
        meter.slice(utf8Bytes(slice));
        parser.write(filter.write(slice));
        yield* ready.splice(0);
        if (meter.over) {
          throw sourceError(
            label,
            frames
              ? `item ${row + 1} (line ${itemLine}) is ${overCap()}`
              : `the XML holds a run of text ${overCap()} outside the items, after item ${row}`,
          );
        }
      }
    }
    parser.close();
    yield* ready.splice(0);
  } catch (error) {
    if (error instanceof Error && error.name !== 'SourceError') {
      throw sourceError(label, `not valid XML at line ${parser.line}: ${stripPosition(error.message)}`);
    }
    throw error;
  }
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/**
 * An item's values by key: a repeated element's are a list (`lists`, item by item, for a list
 * field: two `<g:additional_image_link>` are two images), and joined with `|` in `values` for a
 * text field. Blank elements are left out. One element is text, as a CSV cell is.
 */
function joinValues(values: Map<string, string[]>): Pick<SourceRecord, 'values' | 'lists'> {
  const joined = namedValues();
  let lists: Record<string, string[]> | undefined;
  for (const [key, list] of values) {
    const items = list.filter((value) => value !== '');
    joined[key] = items.join('|');
    if (list.length > 1) {
      lists ??= namedValues<string[]>();
      lists[key] = items;
    }
  }
  return lists ? { values: joined, lists } : { values: joined };
}

/** saxes prefixes its messages with `line:column: `; the message already names the line. */
function stripPosition(message: string): string {
  return message.replace(/^\d+:\d+: /, '');
}
