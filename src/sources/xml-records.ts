import { SaxesParser } from 'saxes';
import type { SourceRecord } from '../interfaces.js';
import { sourceError } from './source-error.js';

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
 * dotted keys (`g:shipping/g:country` → `shipping.country`); a repeated element is joined with `|`.
 */
export async function* readXml(text: AsyncIterable<string>, label: string): AsyncGenerator<SourceRecord> {
  const parser = new SaxesParser({ position: true });
  const ready: SourceRecord[] = [];
  let root: string | undefined;
  let frames: Frame[] | undefined;
  let values = new Map<string, string[]>();
  let itemLine = 0;
  let tagLine = 0;
  let row = 0;

  parser.on('opentagstart', () => {
    tagLine = parser.line;
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
        itemLine = tagLine;
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
    if (!frames) return;
    const frame = frames.pop();
    if (!frame) {
      row++;
      ready.push({ row, line: itemLine, values: joinValues(values) });
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

  try {
    for await (const chunk of text) {
      parser.write(chunk);
      yield* ready.splice(0);
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

function joinValues(values: Map<string, string[]>): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const [key, list] of values) joined[key] = list.filter((value) => value !== '').join('|');
  return joined;
}

/** saxes prefixes its messages with `line:column: `; the message already names the line. */
function stripPosition(message: string): string {
  return message.replace(/^\d+:\d+: /, '');
}
