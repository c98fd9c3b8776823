import type { Redis } from 'ioredis';
import type { ProductUpsert } from '../interfaces.js';
import { runWrites, WriteList } from '../redis/write-list.js';
import type { RedisKeys } from '../runs/keys.js';
import type { GatheredWrite } from '../runs/settle-batch.js';
import type { RemoteProduct } from '../seller-api/index.js';
import { compactFields, isKept } from './compact-value.js';
import type { CreateClaims } from './create-claims.js';
import type { IndexedProduct } from './diff.js';
import {
  FORMS_LISTED_FIELDS,
  type FormerFormLookup,
  type ListedForm,
  listedForms,
  lookUpFormerForms,
} from './former-key-forms.js';
import { type FormerMatch, formerIdsOf, formerKeysOf, matchFormerKeys } from './former-keys.js';
import type { IdMap, KnownProduct } from './id-map.js';
import { chunkRefusals, type FactReads, lookedUpRows } from './id-row-facts.js';
import { APPROVAL_READ, LIST_SKIPPED, noteUnrecorded } from './incremental.js';
import { decodeEntry, encodeEntry } from './index-entry.js';
import { writePage } from './list-pages.js';
import { lookUpOtherForms } from './other-forms.js';
import { forEachReadingAhead } from './read-ahead.js';
import { encodeReplaced, type ReplacedValues } from './replaced-values.js';
import { LOOKALIKE_GUARDED } from './unrecorded-names.js';

/** What a row records in the run's index (row-writes.ts): a product it created, or one it wrote. */
export type IndexRecord =
  | { created: true; key: string; product: IndexedProduct }
  | { created: false; product: IndexedProduct; replaced?: ReplacedValues };

/** A remote product whose match key neither the API nor our id map tells. */
export interface UnkeyedProduct extends IndexedProduct {
  /** Its name as listed (unrecorded-names.ts). */
  name?: string;
}

export interface RowLookup extends FormerFormLookup {
  remote?: IndexedProduct;
  known?: KnownProduct;
  /** This run created the product already (a chunk tried again after its worker died). */
  createdByThisRun?: boolean;
  /** The key's other Unicode form the id map knows the product under (catalog/key-forms.ts). */
  knownAs?: string;
  /** Why the row must not be written (row-refusals.ts): it is invalid, and nothing is sent. */
  refused?: string;
  /** The product the row's former key names (former-keys.ts); its record under that key goes. */
  former?: FormerMatch;
}

/**
 * The run's snapshot of the seller's products in Redis (docs/architecture.md, decision 3): read once per
 * run from `GET /products`, then every chunk diffs against it with two round trips.
 */
export class RemoteIndex {
  private listRead = false;
  private lookalikeGuarded = false;
  /** The key forms of earlier versions the run's list read listed a key in (former-key-forms.ts). */
  private formsListed: readonly ListedForm[] = [];
  private readonly notKept: ReadonlySet<string>;
  private readonly factReads: FactReads;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly runId: string,
    private readonly matchBy: string,
    private readonly fields: ReadonlySet<string> | null,
    private readonly idMap: IdMap,
    private readonly claims: CreateClaims,
    /** Fields no reader of the index compares (indexed-fields.ts): not kept. */
    leaveOut: ReadonlySet<string> = new Set(),
  ) {
    // The id is the entry's hash field (index-entry.ts): not kept among the values too.
    this.notKept = new Set(['id', ...leaveOut]);
    this.factReads = { redis, keys, runId, idMap, matchBy };
  }

  /**
   * Writes every page into the index; resolves to the products no key could be found for.
   * `recordListed`: also add every keyed product to the seller's id map (an `--incremental` full read).
   * A key listed twice is the product's the id map records under it, else the first listed's
   * (list-pages.ts). The next page is fetched while one is written (issue 12): the read takes about as long as
   * fetching the pages alone (less, when the client asks for numbered pages two at a time), and
   * holds three pages at most: the one written, the next, and the one asked for early.
   */
  async load(
    pages: AsyncIterable<RemoteProduct[]>,
    recordListed = false,
    /** The run's own read matched by another field than sku: values kept besides (listed-keys.ts). */
    listedKeyFields: readonly string[] = [],
  ): Promise<UnkeyedProduct[]> {
    const unkeyed: UnkeyedProduct[] = [];
    const target = {
      ...this.factReads,
      indexed: (product: RemoteProduct) => this.indexed(product),
      listedKeyFields,
    };
    await forEachReadingAhead(pages, (page) => writePage(target, page, recordListed, unkeyed));
    return unkeyed;
  }

  /** The remote product (and what we know of it) for each row, by the row's id column or its key. */
  async lookup(upserts: ProductUpsert[]): Promise<Map<number, RowLookup>> {
    const result = new Map<number, RowLookup>();
    if (upserts.length === 0) return result;
    const keys = upserts.map((u) => u.key);
    // A row's former key (former-keys.ts) is asked in the same commands as the keys: a row without
    // one adds nothing to them.
    const ask = formerKeysOf(upserts);
    const asked = ask.keys.length > 0 ? [...keys, ...ask.keys] : keys;
    // `created` and `claimedBy` are evidence that this run created a product already: it recorded
    // it, or its create still holds the key's claim (a worker killed before the recording ended).
    const [known, idsByAsked, created, claimedBy] = await Promise.all([
      this.idMap.getMany(asked),
      this.redis.hmget(this.keys.keyToId(this.runId), ...asked),
      this.redis.smismember(this.keys.createdKeys(this.runId), ...keys),
      this.claims.holders(keys),
    ]);
    const idsByKey = idsByAsked.slice(0, keys.length);
    const formerIds = formerIdsOf(ask, idsByAsked.slice(keys.length), known);
    const ids = upserts.map((u, i) => u.id ?? idsByKey[i] ?? known.get(u.key)?.id ?? null);
    const inOtherForm = await lookUpOtherForms(this.factReads, upserts, ids);
    const fromRecord = await this.relyingOnRecord();
    // After a list read, only forms it listed a key in are looked up; without one, the id map.
    const listed = this.listRead ? this.formsListed : undefined;
    const inFormerForm = await lookUpFormerForms(this.factReads, upserts, ids, listed);
    const wanted = [...ids, ...formerIds].filter((id): id is string => id !== null);
    const products =
      wanted.length > 0 ? await this.redis.hmget(this.keys.products(this.runId), ...wanted) : [];
    const byId = new Map<string, IndexedProduct>();
    wanted.forEach((id, i) => {
      const json = products[i];
      if (json) byId.set(id, decodeEntry(id, json));
    });
    // Listed under a row's key, unknown to the id map: an --incremental run relying on the record
    // would create it again (incremental.ts). Rows the map knows, nearly all, cost nothing here.
    if (!fromRecord && upserts.some((u, i) => idsByKey[i] != null && !known.has(u.key)))
      await noteUnrecorded(this.redis, this.keys, this.runId);
    const formers = matchFormerKeys(upserts, ids, {
      ask,
      formerIds,
      byId,
      fromRecord,
      matchBy: this.matchBy,
    });
    const createdHere = upserts.map((_, i) => created[i] === 1 || claimedBy[i] === this.runId);
    const rows = lookedUpRows(upserts, { ids, idsByKey, known, byId, createdHere }, this.matchBy);
    const refused = await chunkRefusals(this.factReads, rows, fromRecord);
    for (const [row, reason] of formers.refused) refused.set(row, reason);
    upserts.forEach((upsert, i) => {
      const id = ids[i];
      const lookup: RowLookup = {};
      const reason = refused.get(upsert.row);
      const former = formers.matches.get(i);
      if (reason !== undefined) lookup.refused = reason;
      else if (former) lookup.former = former;
      // The id map's record under the key is another product's when the id column names this one;
      // a row found by its former key has its product's record under that key.
      const adopted = lookup.former?.adopted === true;
      const ownKnown = known.get(adopted ? (upsert.formerKey as string) : upsert.key);
      const named = upsert.id ?? (adopted ? id : undefined);
      const another = named !== undefined && ownKnown?.id !== named;
      const earlier = inFormerForm.get(upsert.row);
      const knownProduct = another
        ? undefined
        : (ownKnown ?? inOtherForm.get(upsert.row)?.product ?? earlier?.match.product);
      // An --incremental run that read no product diffs against what this tool last sent alone
      // (a field the listing does not show is compared with the record, see diffProduct).
      const recorded: IndexedProduct | undefined =
        fromRecord && id ? { id, values: {}, unread: true } : undefined;
      const remote = (id ? byId.get(id) : undefined) ?? recorded;
      if (remote) lookup.remote = remote;
      if (knownProduct) lookup.known = knownProduct;
      const knownAs = known.has(upsert.key) ? undefined : inOtherForm.get(upsert.row)?.form;
      if (knownAs !== undefined) lookup.knownAs = knownAs;
      if (earlier && reason === undefined && !former) lookup[earlier.form.name] = earlier.match;
      if (createdHere[i]) lookup.createdByThisRun = true;
      result.set(upsert.row, lookup);
    });
    return result;
  }

  /**
   * True when this run's list read was skipped (`--incremental`) and no approval has read the held
   * products since. A run that read the list is known so for good; one that did not is asked again
   * at each chunk, as an approval (a later snapshot step, maybe in another process) may read them.
   */
  private async relyingOnRecord(): Promise<boolean> {
    if (this.listRead) return false;
    // Asked in the same command: whether the list read found products without a SKU unknown to the
    // tool (unrecorded-names.ts), and keys in an earlier version's form, set before the snapshot is
    // ready, so before any lookup.
    const [skipped, reread, guarded, ...forms] = await this.redis.hmget(
      this.keys.run(this.runId),
      LIST_SKIPPED,
      APPROVAL_READ,
      LOOKALIKE_GUARDED,
      ...FORMS_LISTED_FIELDS,
    );
    if (skipped !== '1') this.listRead = true;
    this.lookalikeGuarded = guarded === '1';
    this.formsListed = listedForms(forms);
    return skipped === '1' && reread !== '1';
  }

  /**
   * Whether the run's list read found products without a SKU that the tool has no record of (their
   * names kept: unrecorded-names.ts), or, matched by another field, products with a value a create
   * must not repeat (listed-keys.ts): known once a lookup of this index ran, with no command of its own.
   */
  get listsUnrecorded(): boolean {
    return this.lookalikeGuarded;
  }

  /** The index entry of a product found under a key (after a lost answer to a create). */
  async byKey(key: string): Promise<IndexedProduct | null> {
    const id = await this.redis.hget(this.keys.keyToId(this.runId), key);
    if (!id) return null;
    const json = await this.redis.hget(this.keys.products(this.runId), id);
    return json ? decodeEntry(id, json) : null;
  }

  /** Records the product a row created, so a later lookup (a re-run chunk) sees it. */
  async put(key: string, product: IndexedProduct): Promise<void> {
    await this.write([{ created: true, key, product }]);
  }

  /**
   * Replaces a product's entry with what the API shows after a write and, for a PUT of an update,
   * keeps what it replaced (for `revert`) in the same step: a chunk tried again after a crash finds
   * the product either unchanged and its old values kept, or neither (and sends the PUT again).
   * The first record of a product in a run stays: it holds the values from before the run.
   */
  async refresh(product: IndexedProduct, replaced?: ReplacedValues): Promise<void> {
    await this.write([replaced ? { created: false, product, replaced } : { created: false, product }]);
  }

  private async write(records: readonly IndexRecord[]): Promise<void> {
    const writes = new WriteList();
    this.writeRecords(writes, records);
    await runWrites(this.redis, writes);
  }

  /** `put` and `refresh` of many rows, in the step that settles them (row-writes.ts). */
  readonly recorded: GatheredWrite<IndexRecord> = {
    write: (writes, records) => this.writeRecords(writes, records),
  };

  /** The records in order, in a write per hash: a product's last entry wins, its first replaced values. */
  private writeRecords(writes: WriteList, records: readonly IndexRecord[]): void {
    const entries = new Map<string, string>();
    const keyToId = new Map<string, string>();
    const idToKey = new Map<string, string>();
    const created: string[] = [];
    const replaced: string[] = [];
    for (const record of records) {
      const { product } = record;
      entries.set(product.id, encodeEntry(this.kept(product)));
      if (record.created) {
        created.push(record.key);
        keyToId.set(record.key, product.id);
        idToKey.set(product.id, record.key);
      } else if (record.replaced) {
        replaced.push(product.id, encodeReplaced(record.replaced));
      }
    }
    writes.sadd(this.keys.createdKeys(this.runId), created);
    writes.hset(this.keys.keyToId(this.runId), [...keyToId].flat());
    writes.hset(this.keys.idToKey(this.runId), [...idToKey].flat());
    writes.hset(this.keys.products(this.runId), [...entries].flat());
    writes.setAbsent(this.keys.replaced(this.runId), replaced);
  }

  async forget(key: string, id: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.products(this.runId), id)
      .hdel(this.keys.keyToId(this.runId), key)
      .hdel(this.keys.idToKey(this.runId), id)
      .exec();
  }

  indexed(product: RemoteProduct): IndexedProduct {
    return { id: product.id, values: compactFields(product.fields, this.fields ?? undefined, this.notKept) };
  }

  /**
   * An entry after a write holds what the API showed (its id, its stamps): kept by the same rules
   * as a listed product's, so that it is no larger (issue 12) and reads the same.
   */
  private kept(product: IndexedProduct): IndexedProduct {
    const values: IndexedProduct['values'] = {};
    for (const [name, value] of Object.entries(product.values)) {
      if (isKept(name, this.fields, this.notKept)) values[name] = value;
    }
    return { id: product.id, values };
  }
}
