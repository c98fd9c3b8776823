import { SHOPIFY_UNGROUPED_MAX_BYTES } from '../../../defaults.js';
import { formatBytes } from '../../limits.js';
import { sourceError } from '../../source-error.js';

/** A product of the bulk file with its variants and media images, as the file's lines give them. */
export interface BulkProduct {
  product: Record<string, unknown>;
  variants: Array<Record<string, unknown>>;
  images: Array<Record<string, unknown>>;
}

/** An object of the bulk file: its line (1-based) and the length of its JSON text. */
export interface BulkLine {
  line: number;
  object: Record<string, unknown>;
  bytes: number;
}

/**
 * The file's objects as products, each with its children (lines naming it in `__parentId`).
 *
 * Asked grouped (`groupObjects: true`, bulk-query.ts), the file lists each product right before its
 * children, so a product is whole when the next one begins: one is held at a time, whatever the
 * shop's size. A file that is not grouped (a store that did not honour the argument, or an operation
 * of another client joined: bulk-operation-start.ts) is told by its first lines: a child of another
 * product than the one before it, or a product right after a product (grouped, every product is
 * followed by its variants: Shopify gives each product one at least). Found before any product was
 * handed on, the rest of the file is read and joined in memory, up to `maxHeldBytes` of it; found
 * later (a file grouped at first), some products were handed on already, maybe without all their
 * children: the read ends in one line rather than hand on a product whose variants were cut.
 */
export async function* productsOf(
  lines: AsyncIterator<BulkLine>,
  label: string,
  maxHeldBytes = SHOPIFY_UNGROUPED_MAX_BYTES,
): AsyncGenerator<BulkProduct> {
  try {
    yield* grouped(lines, label, maxHeldBytes);
  } finally {
    // A read stopped early (the run interrupted, a failure) closes the file's stream too.
    await lines.return?.();
  }
}

async function* grouped(
  lines: AsyncIterator<BulkLine>,
  label: string,
  maxHeldBytes: number,
): AsyncGenerator<BulkProduct> {
  let current: BulkProduct | null = null;
  let yielded = false;
  let held = 0;
  for (;;) {
    const next = await lines.next();
    if (next.done) break;
    const read = next.value;
    held += read.bytes;
    const parent = read.object.__parentId;
    if (typeof parent === 'string' && current?.product.id === parent) {
      attach(current, read.object);
      continue;
    }
    const product = typeof parent !== 'string';
    const inPlace = product ? !current || current.variants.length > 0 || yielded : false;
    if (!inPlace) {
      if (yielded)
        throw sourceError(
          label,
          `line ${read.line} of the bulk result belongs to a product read before it: the file is not grouped by product as asked (groupObjects: true), so a product read before may lack some of its variants: run again`,
        );
      yield* joined(current, read, lines, label, held, maxHeldBytes);
      return;
    }
    if (current) {
      yield current;
      yielded = true;
    }
    current = { product: read.object, variants: [], images: [] };
  }
  if (current) yield current;
}

/**
 * The rest of a file that is not grouped, joined in memory: each product (in the file's order) with
 * its children, wherever they are, before or after it. `held`: the bytes read so far.
 */
async function* joined(
  first: BulkProduct | null,
  read: BulkLine,
  lines: AsyncIterator<BulkLine>,
  label: string,
  held: number,
  maxHeldBytes: number,
): AsyncGenerator<BulkProduct> {
  const products = new Map<unknown, BulkProduct>();
  // Children read before their product, by the product's id, with the line of the first.
  const waiting = new Map<string, { line: number; children: Array<Record<string, unknown>> }>();
  if (first) products.set(first.product.id, first);
  let next: BulkLine | null = read;
  while (next) {
    if (held > maxHeldBytes)
      throw sourceError(
        label,
        `the bulk result is not grouped by product as asked (groupObjects: true) and holds more than ${formatBytes(maxHeldBytes)}, more than is joined in memory: run again; nothing was sent`,
      );
    const { object, line } = next;
    const parent = object.__parentId;
    if (typeof parent === 'string') {
      const product = products.get(parent);
      if (product) attach(product, object);
      else {
        const early = waiting.get(parent) ?? { line, children: [] };
        early.children.push(object);
        waiting.set(parent, early);
      }
    } else {
      const product: BulkProduct = { product: object, variants: [], images: [] };
      products.set(object.id, product);
      const early = typeof object.id === 'string' ? waiting.get(object.id) : undefined;
      for (const child of early?.children ?? []) attach(product, child);
      if (typeof object.id === 'string') waiting.delete(object.id);
    }
    const after = await lines.next();
    next = after.done ? null : after.value;
    if (next) held += next.bytes;
  }
  const orphan = [...waiting.values()][0];
  if (orphan)
    throw sourceError(label, `line ${orphan.line} of the bulk result names a product the file does not hold`);
  yield* products.values();
}

function attach(product: BulkProduct, child: Record<string, unknown>): void {
  const id = typeof child.id === 'string' ? child.id : '';
  if (id.includes('/ProductVariant/')) product.variants.push(child);
  else if (id.includes('/MediaImage/')) product.images.push(child);
  // Other media (video, 3D model) are not images: left out, as the CSV export leaves them.
}
