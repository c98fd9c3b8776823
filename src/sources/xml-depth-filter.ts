import { XML_NAME_LIMIT } from '../defaults.js';

/**
 * Keeps XML nested deeper than the limit away from the XML parser. saxes holds one object per open
 * element (about 270 bytes): 8 MiB of `<a>` would take 750 MB before any item ends. This filter
 * follows the markup (tags, quoted attribute values, comments, CDATA, processing instructions,
 * a DOCTYPE) just well enough to know the depth, and replaces an element that opens too deep, with
 * all it holds, by the processing instruction `<?catalog-sync-too-deep?>`, which the reader turns
 * into an invalid row. Everything else passes through unchanged, for saxes to judge.
 *
 * Levels count from the item (`<item>`, `<entry>`: level 1), or from the document outside items.
 */
export const TOO_DEEP_TARGET = 'catalog-sync-too-deep';
const TOO_DEEP_MARK = `<?${TOO_DEEP_TARGET}?>`;

type State =
  | 'text'
  | 'lt' // after '<'
  | 'bang' // after '<!', deciding between comment, CDATA and declaration
  | 'comment'
  | 'cdata'
  | 'pi'
  | 'declaration'
  | 'start-tag'
  | 'end-tag';

const ENDS = { comment: '-->', cdata: ']]>', pi: '?>' } as const;
const NAME = /[^\s/>"']*/y;
const TAG_STOP = /["'>]/g;

export class XmlDepthFilter {
  private state: State = 'text';
  private depth = 0;
  /** Depth of the open item element, when one is open. */
  private itemDepth: number | undefined;
  /** Inside an element dropped for its depth: how many of its elements are open. */
  private dropping: number | undefined;
  private bang = '';
  private name = '';
  private nameDone = false;
  private quote = '';
  private lastTagChar = '';
  private brackets = 0;
  /** The end of a comment, CDATA or PI may be cut between chunks: the last characters seen. */
  private tail = '';

  constructor(
    private readonly limit: number,
    private readonly isItem: (localName: string) => boolean,
  ) {}

  /** The text to give the parser for this chunk. */
  write(chunk: string): string {
    let out = '';
    /** Start of the run of this chunk not yet given (while not dropping). */
    let from = 0;
    const give = (to: number) => {
      if (this.dropping === undefined && to > from) out += chunk.slice(from, to);
      from = to;
    };
    for (let i = 0; i < chunk.length; i++) {
      switch (this.state) {
        case 'text': {
          const lt = chunk.indexOf('<', i);
          if (lt === -1) {
            i = chunk.length;
            break;
          }
          // The '<' is held until it is known not to open an element too deep.
          give(lt);
          from = lt + 1;
          i = lt;
          this.state = 'lt';
          break;
        }
        case 'lt': {
          const char = chunk[i]!;
          from = i;
          if (char === '!') {
            this.state = 'bang';
            this.bang = '';
          } else if (char === '?') {
            this.state = 'pi';
            this.tail = '';
          } else if (char === '/') {
            this.state = 'end-tag';
          } else {
            this.state = 'start-tag';
            this.name = '';
            this.nameDone = false;
            this.quote = '';
            this.lastTagChar = '';
            if (this.dropping === undefined && this.depth + 1 > this.levelLimit()) {
              // This element and all it holds are replaced by the mark.
              out += TOO_DEEP_MARK;
              this.dropping = 0;
            }
            i--; // the name's first character is read in the start-tag state
          }
          if (this.dropping === undefined) out += '<';
          break;
        }
        case 'bang': {
          this.bang += chunk[i];
          if (this.bang === '--') this.enter('comment');
          else if (this.bang === '[CDATA[') this.enter('cdata');
          else if (!'--'.startsWith(this.bang) && !'[CDATA['.startsWith(this.bang)) {
            this.state = 'declaration';
            this.brackets = 0;
            this.quote = '';
            i--;
          }
          break;
        }
        case 'comment':
        case 'cdata':
        case 'pi': {
          const end = ENDS[this.state];
          if (this.tail) {
            const joined = this.tail + chunk.slice(i, i + end.length - 1);
            const at = joined.indexOf(end);
            if (at !== -1) {
              i += at + end.length - this.tail.length - 1;
              this.tail = '';
              this.state = 'text';
              break;
            }
          }
          const at = chunk.indexOf(end, i);
          if (at === -1) {
            this.tail = (this.tail + chunk.slice(Math.max(i, chunk.length - end.length))).slice(
              -(end.length - 1),
            );
            i = chunk.length;
            break;
          }
          i = at + end.length - 1;
          this.tail = '';
          this.state = 'text';
          break;
        }
        case 'declaration': {
          const char = chunk[i]!;
          if (this.quote) {
            if (char === this.quote) this.quote = '';
          } else if (char === '"' || char === "'") this.quote = char;
          else if (char === '[') this.brackets++;
          else if (char === ']') this.brackets--;
          else if (char === '>' && this.brackets <= 0) this.state = 'text';
          break;
        }
        case 'start-tag': {
          if (this.quote) {
            // Inside an attribute value: only its closing quote matters.
            const close = chunk.indexOf(this.quote, i);
            if (close === -1) {
              i = chunk.length;
              break;
            }
            i = close;
            this.quote = '';
            this.lastTagChar = chunk[close]!;
            break;
          }
          if (!this.nameDone) {
            NAME.lastIndex = i;
            const name = NAME.exec(chunk)![0];
            if (this.name.length < XML_NAME_LIMIT)
              this.name += name.slice(0, XML_NAME_LIMIT - this.name.length);
            if (name) this.lastTagChar = name.at(-1)!;
            i += name.length;
            if (i >= chunk.length) break;
            this.nameDone = true;
          }
          // The next quote or '>', and the last character before it that is not a space.
          TAG_STOP.lastIndex = i;
          const stop = TAG_STOP.exec(chunk);
          const at = stop ? stop.index : chunk.length;
          for (let back = at - 1; back >= i; back--) {
            const char = chunk.charCodeAt(back);
            if (char !== 0x20 && char !== 0x09 && char !== 0x0a && char !== 0x0d) {
              this.lastTagChar = chunk[back]!;
              break;
            }
          }
          if (!stop) {
            i = chunk.length;
            break;
          }
          i = at;
          if (stop[0] === '>') {
            const wasDropping = this.dropping !== undefined;
            this.endStartTag();
            if (wasDropping && this.dropping === undefined) from = i + 1;
          } else {
            this.quote = stop[0];
            this.lastTagChar = stop[0];
          }
          break;
        }
        case 'end-tag': {
          const gt = chunk.indexOf('>', i);
          if (gt === -1) {
            i = chunk.length;
            break;
          }
          i = gt;
          this.state = 'text';
          if (this.dropping !== undefined) {
            this.dropping--;
            if (this.dropping <= 0) {
              this.dropping = undefined;
              from = i + 1;
            }
            break;
          }
          if (this.itemDepth !== undefined && this.depth <= this.itemDepth) this.itemDepth = undefined;
          this.depth = Math.max(0, this.depth - 1);
          break;
        }
      }
    }
    give(chunk.length);
    return out;
  }

  private enter(state: 'comment' | 'cdata'): void {
    this.state = state;
    this.tail = '';
  }

  /** The '>' of a start tag: one level deeper, unless it closes itself. */
  private endStartTag(): void {
    const selfClosing = this.lastTagChar === '/';
    this.state = 'text';
    if (this.dropping !== undefined) {
      if (!selfClosing) this.dropping++;
      if (this.dropping === 0) this.dropping = undefined;
      return;
    }
    if (selfClosing) return;
    this.depth++;
    if (this.itemDepth === undefined && this.isItem(this.name.slice(this.name.indexOf(':') + 1))) {
      this.itemDepth = this.depth;
    }
  }

  /** The deepest an element may open now: `limit` levels from the item, or from the document. */
  private levelLimit(): number {
    return this.itemDepth === undefined ? this.limit : this.itemDepth + this.limit - 1;
  }
}
