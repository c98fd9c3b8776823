import { comparableKey } from '../catalog/key-forms.js';
import type { ProductUpsert } from '../interfaces.js';
import type { IndexedProduct } from './diff.js';
import type { KnownProduct } from './id-map.js';
import { keyInEntry } from './row-refusals.js';

/**
 * A SKU given later (docs/sources.md): a row whose product this tool created or matched under the
 * preset's derived key, and which now has a SKU, carries that key as its former key
 * (ProductUpsert.formerKey). The product known under it is the row's: it is given the SKU and the id
 * map learns the SKU for it, instead of a second product being made. Never two products made one:
 * when the SKU already names another product, or the product shows another SKU, the row is refused.
 */

/** What a row's former key told (RowLookup.former). */
export interface FormerMatch {
  key: string;
  /** The product the tool knew under the former key: its id-map entry goes once the row is recorded. */
  id: string;
  /** The row's product was found through its former key alone: the row gives it its SKU. */
  adopted: boolean;
}

/** The chunk's former keys, asked in the commands that ask its keys: each with its row's index. */
export interface FormerAsk {
  at: number[];
  keys: string[];
}

export function formerKeysOf(upserts: readonly ProductUpsert[]): FormerAsk {
  const ask: FormerAsk = { at: [], keys: [] };
  upserts.forEach((upsert, i) => {
    if (upsert.formerKey === undefined) return;
    ask.at.push(i);
    ask.keys.push(upsert.formerKey);
  });
  return ask;
}

/** The product known under each former key: the run's index's (a full read), else the id map's. */
export function formerIdsOf(
  ask: FormerAsk,
  indexed: readonly (string | null)[],
  known: ReadonlyMap<string, KnownProduct>,
): (string | null)[] {
  return ask.keys.map((key, j) => indexed[j] ?? known.get(key)?.id ?? null);
}

/** What the look-up read, for the rows with a former key. */
export interface FormerReads {
  ask: FormerAsk;
  formerIds: readonly (string | null)[];
  byId: ReadonlyMap<string, IndexedProduct>;
  /** An `--incremental` run that read no product: the id map is all it knows. */
  fromRecord: boolean;
  matchBy: string;
}

/** The former keys' verdicts: the product each names, by row index; the rows refused, by row number. */
export interface FormerVerdicts {
  matches: Map<number, FormerMatch>;
  refused: Map<number, string>;
}

/**
 * Each former key's verdict. `ids` (the product each row resolved to by its key) gets the former
 * key's product where the row's key names none, and loses a refused row's. A full read trusts its
 * list: a product not listed is gone, whichever key names it.
 */
export function matchFormerKeys(
  upserts: readonly ProductUpsert[],
  ids: (string | null)[],
  reads: FormerReads,
): FormerVerdicts {
  const verdicts: FormerVerdicts = { matches: new Map(), refused: new Map() };
  const alive = (id: string | null): id is string => id !== null && (reads.fromRecord || reads.byId.has(id));
  const { matchBy } = reads;
  reads.ask.at.forEach((i, j) => {
    const formerId = reads.formerIds[j] ?? null;
    const upsert = upserts[i] as ProductUpsert;
    const key = upsert.formerKey as string;
    if (formerId === null) return;
    const refuse = (reason: string) => {
      verdicts.refused.set(upsert.row, reason);
      ids[i] = null;
    };
    const own = ids[i] ?? null;
    if (!alive(formerId) || own === formerId) {
      verdicts.matches.set(i, { key, id: formerId, adopted: false });
    } else if (alive(own)) {
      refuse(
        `${matchBy} ${upsert.key} is product ${own}, and its former key ${key} names product ${formerId}: two products are not made one (remove the one not wanted on the marketplace)`,
      );
    } else {
      const shown = keyInEntry(reads.byId.get(formerId)?.values, matchBy);
      if (shown !== null && comparableKey(shown) !== comparableKey(upsert.key)) {
        refuse(
          `its former key ${key} names product ${formerId}, whose ${matchBy} is ${shown}: not changed to ${upsert.key}`,
        );
      } else {
        ids[i] = formerId;
        verdicts.matches.set(i, { key, id: formerId, adopted: true });
      }
    }
  });
  return verdicts;
}

/** The row's note when its product was found by its former key (`sku set` once the write went out). */
export function formerKeyNote(former: string, skuSet: boolean): string {
  return `matched by its former key ${former}${skuSet ? ': sku set' : ''}`;
}
