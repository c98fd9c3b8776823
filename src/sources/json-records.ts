import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { MAX_NESTING } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';
import { flattenItem, isPlainObject, TooDeepError } from './flatten.js';
import { formatBytes, RecordMeter, sliceLength, slices, utf8Bytes } from './limits.js';
import { sourceError } from './source-error.js';
import type { ReaderOptions } from './types.js';

/** Keys under which exports wrap their list of products, tried before any other array-valued key. */
const WRAPPER_KEYS = new Set(['products', 'items', 'data', 'entries']);

/**
 * Streams the items of a JSON array, or of the array an object wraps (`{"products": [...]}`), one
 * assembled item at a time: memory holds one item, never the document. Numbers keep their source text
 * (`12.50` stays `12.50`). The stream has no cheap line positions, so `line` is the item index.
 * The tokenizer is stream-json's synchronous core, fed slice by slice: a token per `await` would
 * triple the time of a large feed, and small slices let the size of the item being built be checked
 * while the tokenizer holds it (`--max-record-bytes`). An item nested deeper than `MAX_NESTING` is
 * not built at all: its record is invalid.
 */
export async function* readJson(
  text: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<SourceRecord> {
  const { label, maxRecordBytes } = options;
  const tokenize = jsonParser({ packValues: true, streamValues: false });
  const meter = new RecordMeter(maxRecordBytes);
  const items = new ItemStream(label, meter);
  const length = sliceLength(maxRecordBytes);
  for await (const chunk of text) {
    for (const slice of slices(chunk, length)) {
      meter.slice(utf8Bytes(slice));
      let tokens: Token[];
      try {
        const out = tokenize(slice);
        tokens = typeof out === 'symbol' ? [] : out.values;
      } catch (error) {
        throw sourceError(label, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const token of tokens) {
        const item = items.consume(token);
        if (item) yield item;
      }
      items.checkSize();
    }
  }
  items.finish();
}

/** The item being built: its assembler (none once it is known to be too deep) and its nesting. */
interface ItemState {
  assembler: Assembler | undefined;
  nesting: number;
}

/** The state machine from tokens to items: which array holds the products, and where each item ends. */
class ItemStream {
  row = 0;
  private depth = 0;
  private rootIsObject = false;
  private key: string | undefined;
  private candidateKey: string | undefined;
  private itemsDepth: number | undefined;
  private streamedKey: string | undefined;
  private skipping = 0;
  private item: ItemState | undefined;

  constructor(
    private readonly label: string,
    private readonly meter: RecordMeter,
  ) {}

  consume(token: Token): SourceRecord | undefined {
    if (this.item) return this.feedItem(token);
    this.meter.progress();
    if (this.skipping > 0) {
      this.skipping += nesting(token);
      return undefined;
    }
    if (this.itemsDepth !== undefined && this.depth === this.itemsDepth) {
      if (token.name === 'endArray') {
        this.itemsDepth = undefined;
        this.depth--;
        return undefined;
      }
      this.startItem();
      return this.feedItem(token);
    }
    if (this.candidateKey !== undefined) return this.decideCandidate(token);
    return this.structure(token);
  }

  /** After each slice: the item being built, or what lies between items, is within the cap. */
  checkSize(): void {
    if (!this.meter.over) return;
    const cap = `${formatBytes(this.meter.maxRecordBytes)} (--max-record-bytes)`;
    if (this.item) throw sourceError(this.label, `item ${this.row + 1} is over ${cap}`);
    throw sourceError(
      this.label,
      `the JSON holds a value over ${cap} outside the items, after item ${this.row}`,
    );
  }

  finish(): void {
    if (this.depth > 0 || this.item) {
      throw sourceError(this.label, `not valid JSON: the document ends early, after item ${this.row}`);
    }
    if (this.rootIsObject && this.streamedKey === undefined) {
      throw sourceError(
        this.label,
        'the JSON object holds no array of products (expected a key such as "products", "items" or "data")',
      );
    }
  }

  private structure(token: Token): undefined {
    if (this.depth === 0) {
      if (token.name === 'startArray') {
        this.depth = 1;
        this.itemsDepth = 1;
        this.streamedKey = '';
      } else if (token.name === 'startObject') {
        this.depth = 1;
        this.rootIsObject = true;
      } else {
        throw sourceError(this.label, 'JSON must be an array of objects, or an object that wraps one');
      }
      return undefined;
    }
    if (token.name === 'keyValue') {
      this.key = token.value;
      return undefined;
    }
    if (token.name === 'endObject') {
      this.depth--;
      return undefined;
    }
    if (token.name === 'startArray' && this.key !== undefined) {
      if (WRAPPER_KEYS.has(this.key.toLowerCase())) this.startItems(this.key);
      else this.candidateKey = this.key;
      return undefined;
    }
    this.skipping = nesting(token);
    return undefined;
  }

  /** An array under another key holds the products only if its first element is an object. */
  private decideCandidate(token: Token): SourceRecord | undefined {
    const key = this.candidateKey!;
    this.candidateKey = undefined;
    if (token.name === 'endArray') return undefined;
    if (token.name !== 'startObject') {
      this.skipping = 1 + nesting(token);
      return undefined;
    }
    this.startItems(key);
    this.startItem();
    return this.feedItem(token);
  }

  private startItem(): void {
    this.item = { assembler: new Assembler({ numberAsString: true }), nesting: 0 };
    this.meter.recordStarted();
  }

  private startItems(key: string): void {
    if (this.streamedKey !== undefined) {
      throw sourceError(
        this.label,
        `the JSON object holds several arrays of objects ("${this.streamedKey}", "${key}"): cannot tell which are the products`,
      );
    }
    this.streamedKey = key;
    this.depth++;
    this.itemsDepth = this.depth;
  }

  private feedItem(token: Token): SourceRecord | undefined {
    const item = this.item!;
    item.nesting += nesting(token);
    if (item.assembler && item.nesting > MAX_NESTING) item.assembler = undefined;
    if (item.assembler) {
      item.assembler.consume(token);
      if (!item.assembler.done) return undefined;
    } else if (item.nesting > 0) {
      return undefined;
    }
    this.item = undefined;
    this.row++;
    if (this.meter.over) {
      throw sourceError(
        this.label,
        `item ${this.row} is over ${formatBytes(this.meter.maxRecordBytes)} (--max-record-bytes)`,
      );
    }
    this.meter.progress();
    if (!item.assembler) return this.tooDeep();
    const value = item.assembler.current;
    if (!isPlainObject(value)) {
      return {
        row: this.row,
        line: this.row,
        values: namedValues(),
        problem: `item ${this.row} is not a JSON object`,
      };
    }
    try {
      return { row: this.row, line: this.row, ...flattenItem(value) };
    } catch (error) {
      if (error instanceof TooDeepError) return this.tooDeep();
      throw error;
    }
  }

  private tooDeep(): SourceRecord {
    return {
      row: this.row,
      line: this.row,
      values: namedValues(),
      problem: `item ${this.row} is nested deeper than ${MAX_NESTING} levels`,
    };
  }
}

/** How a token changes the nesting depth while a value is skipped. */
function nesting(token: Token): number {
  if (token.name === 'startObject' || token.name === 'startArray') return 1;
  if (token.name === 'endObject' || token.name === 'endArray') return -1;
  return 0;
}
