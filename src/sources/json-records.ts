import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import type { SourceRecord } from '../interfaces.js';
import { flattenItem, isPlainObject } from './flatten.js';
import { sourceError } from './source-error.js';

/** Keys under which exports wrap their list of products, tried before any other array-valued key. */
const WRAPPER_KEYS = new Set(['products', 'items', 'data', 'entries']);

/**
 * Streams the items of a JSON array, or of the array an object wraps (`{"products": [...]}`), one
 * assembled item at a time: memory holds one item, never the document. Numbers keep their source text
 * (`12.50` stays `12.50`). The stream has no cheap line positions, so `line` is the item index.
 * The tokenizer is stream-json's synchronous core, fed chunk by chunk: a token per `await` would
 * triple the time of a large feed.
 */
export async function* readJson(text: AsyncIterable<string>, label: string): AsyncGenerator<SourceRecord> {
  const tokenize = jsonParser({ packValues: true, streamValues: false });
  const items = new ItemStream(label);
  for await (const chunk of text) {
    let tokens: Token[];
    try {
      const out = tokenize(chunk);
      tokens = typeof out === 'symbol' ? [] : out.values;
    } catch (error) {
      throw sourceError(label, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const token of tokens) {
      const item = items.consume(token);
      if (item) yield item;
    }
  }
  items.finish();
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
  private assembler: Assembler | undefined;

  constructor(private readonly label: string) {}

  consume(token: Token): SourceRecord | undefined {
    if (this.assembler) return this.feedItem(token);
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
      this.assembler = new Assembler({ numberAsString: true });
      return this.feedItem(token);
    }
    if (this.candidateKey !== undefined) return this.decideCandidate(token);
    return this.structure(token);
  }

  finish(): void {
    if (this.depth > 0 || this.assembler) {
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
    this.assembler = new Assembler({ numberAsString: true });
    return this.feedItem(token);
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
    const assembler = this.assembler!;
    assembler.consume(token);
    if (!assembler.done) return undefined;
    this.assembler = undefined;
    this.row++;
    const value = assembler.current;
    if (!isPlainObject(value)) {
      return { row: this.row, line: this.row, values: {}, problem: `item ${this.row} is not a JSON object` };
    }
    return { row: this.row, line: this.row, values: flattenItem(value) };
  }
}

/** How a token changes the nesting depth while a value is skipped. */
function nesting(token: Token): number {
  if (token.name === 'startObject' || token.name === 'startArray') return 1;
  if (token.name === 'endObject' || token.name === 'endArray') return -1;
  return 0;
}
