import type { CompactValue } from './compact-value.js';

/** What this tool remembers of a product it created or updated for a seller (the three-way diff). */
export interface KnownProduct {
  id: string;
  /** The compact value of each field as this tool last sent it. */
  sent: Record<string, CompactValue>;
  /**
   * What the API showed of a sent field after the write, where it differs from what was sent (a price
   * kept in cents, a trimmed name): an echo digest (see echoDigest), or UNKNOWN_ECHO when the answer
   * showed nothing and the next list read is to tell. A field absent here was shown as sent.
   */
  echo?: Record<string, string>;
  /** Sent fields the API accepted but did not apply (WriteMemory in diff.ts). */
  unapplied?: string[];
  /**
   * Recorded from a list read only (an `--incremental` full read, IdMap.addListed): found by key on
   * the marketplace, neither created nor matched from a source row, so not managed (`--missing`
   * leaves it alone). Any record of a row's product drops it: encodeKnown never writes it.
   */
  listed?: true;
}

/*
 * An id-map entry as stored (issue 12): one hash value per product, kept forever, so short enough
 * (≤ 64 bytes for a typical product) that the bucket holding it stays in listpack encoding. JSON
 * spelled every field name and quote: ~72 bytes where this takes ~25.
 *
 *   id|item|item…     e.g. `22|kA|rBZQXhGhho_G|nD22.2`
 *
 * `|` and `\` in any part are escaped with `\`. An item is a kind, a field, and a payload:
 *   kind   s string, n number, t true, f false (sent values), k sent string equal to the match key
 *          (`sku` as the key: kept once), r sent digest `#~…` (its mark left out), e echo, u unapplied
 *   field  one letter for a field of FIELD_CODES, else `.` + the name (`=` escaped too) + `=`
 * Items keep the order of `sent`, then `echo`, then `unapplied`: decoding gives back the same
 * entry (an empty `echo` or `unapplied` means what an absent one means, and is left out).
 * A product recorded from a list read only is `id|l` (encodeListed): the one item of no field.
 */

const SEPARATOR = '|';
const ESCAPE = '\\';
const NAME_END = '=';
const SPELLED = '.';
const REMEMBERED_MARK = '#~';

// Append-only: a letter, once given, names its field in every stored entry.
const FIELD_CODES: Readonly<Record<string, string>> = {
  sku: 'A',
  name: 'B',
  description: 'C',
  price: 'D',
  sale_price: 'E',
  currency: 'F',
  quantity: 'G',
  brand: 'H',
  barcode: 'I',
  mpn: 'J',
  images: 'K',
  category: 'L',
  tags: 'M',
  weight: 'N',
  condition: 'O',
  availability: 'P',
  status: 'Q',
  active: 'R',
  url: 'S',
};
const FIELD_OF_CODE = new Map(Object.entries(FIELD_CODES).map(([name, code]) => [code, name]));

const SPECIAL = /[|\\]/g;
const SPECIAL_IN_NAME = /[|\\=]/g;

function escaped(text: string, special = SPECIAL): string {
  return text.replace(special, '\\$&');
}

function unescaped(text: string): string {
  return text.includes(ESCAPE) ? text.replace(/\\(.)/gs, '$1') : text;
}

function field(name: string): string {
  return FIELD_CODES[name] ?? SPELLED + escaped(name, SPECIAL_IN_NAME) + NAME_END;
}

function sentItem(name: string, value: CompactValue, matchKey: string): string {
  if (typeof value === 'number') return `n${field(name)}${value}`;
  if (typeof value === 'boolean') return `${value ? 't' : 'f'}${field(name)}`;
  if (value === matchKey) return `k${field(name)}`;
  if (value.startsWith(REMEMBERED_MARK)) return `r${field(name)}${escaped(value.slice(2))}`;
  return `s${field(name)}${escaped(value)}`;
}

/** The first item of every stored entry of the product `id` (encodeKnown): its id, escaped. */
export function entryHead(id: string): string {
  return escaped(id);
}

/** The stored form of the entry of `matchKey`. */
export function encodeKnown(matchKey: string, product: KnownProduct): string {
  const items = [escaped(product.id)];
  for (const [name, value] of Object.entries(product.sent)) items.push(sentItem(name, value, matchKey));
  for (const [name, echo] of Object.entries(product.echo ?? {}))
    items.push(`e${field(name)}${escaped(echo)}`);
  for (const name of product.unapplied ?? []) items.push(`u${field(name)}`);
  return items.join(SEPARATOR);
}

const LISTED_ITEM = 'l';

/** The stored form of a product listed under its key, recorded by a list read only (`listed`). */
export function encodeListed(id: string): string {
  return escaped(id) + SEPARATOR + LISTED_ITEM;
}

/** Splits at each `|` not escaped, leaving the escapes in (a spelled field name still needs them). */
function rawItems(stored: string): string[] {
  const items: string[] = [];
  let start = 0;
  for (let i = 0; i < stored.length; i++) {
    if (stored[i] === ESCAPE) i++;
    else if (stored[i] === SEPARATOR) {
      items.push(stored.slice(start, i));
      start = i + 1;
    }
  }
  items.push(stored.slice(start));
  return items;
}

/** An item's field name and its payload (still escaped). */
function nameAndPayload(item: string): [string, string] {
  if (item[1] !== SPELLED) {
    const name = FIELD_OF_CODE.get(item[1] ?? '');
    if (name === undefined) throw new Error(`id map: unknown field code in ${JSON.stringify(item)}`);
    return [name, item.slice(2)];
  }
  let i = 2;
  while (i < item.length && item[i] !== NAME_END) i += item[i] === ESCAPE ? 2 : 1;
  return [unescaped(item.slice(2, i)), item.slice(i + 1)];
}

/** The entry of `matchKey` from its stored form (encodeKnown). */
export function decodeKnown(matchKey: string, stored: string): KnownProduct {
  const [id = '', ...items] = rawItems(stored);
  const product: KnownProduct = { id: unescaped(id), sent: {} };
  for (const item of items) {
    if (item === LISTED_ITEM) {
      product.listed = true;
      continue;
    }
    const [name, raw] = nameAndPayload(item);
    const payload = unescaped(raw);
    switch (item[0]) {
      case 's':
        product.sent[name] = payload;
        break;
      case 'n':
        product.sent[name] = Number(payload);
        break;
      case 't':
      case 'f':
        product.sent[name] = item[0] === 't';
        break;
      case 'k':
        product.sent[name] = matchKey;
        break;
      case 'r':
        product.sent[name] = REMEMBERED_MARK + payload;
        break;
      case 'e':
        product.echo = product.echo ?? {};
        product.echo[name] = payload;
        break;
      case 'u':
        product.unapplied = product.unapplied ?? [];
        product.unapplied.push(name);
        break;
      default:
        throw new Error(`id map: unknown item ${JSON.stringify(item)} for ${JSON.stringify(matchKey)}`);
    }
  }
  return product;
}
