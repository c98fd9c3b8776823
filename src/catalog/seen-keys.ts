/**
 * The match keys already seen in a source, each with the row that had it first (the duplicate-key
 * check). A Map<string, number> cost ~61 bytes per key (58.5 MiB for a million keys like
 * `SKU-0000001`, BENCHMARKS.md); this keeps the keys' UTF-8 bytes end to end and finds them through
 * an open-addressing table: ~27 bytes per such key, and no object per key for the garbage collector
 * to walk. Exact: a slot is taken for a key only after comparing the bytes, so two keys are never
 * taken for one.
 *
 * Everything that grows with the keys grows by fixed pages (1 MiB of bytes, 64 Ki entries of the
 * per-key arrays) rather than by doubling one buffer: a doubled buffer held 16 MiB for 11 MiB of
 * keys, and the buffer it replaced stayed allocated until a full collection (about 10 MiB at the
 * peak of a 1M-row import). Only the slot table is still rebuilt as it doubles.
 *
 * Each key's hash is kept too (4 bytes): a probe that meets another key compares hashes before
 * bytes, and the table doubles without reading the keys again. Without them, the byte compares of
 * keys alike but for their last digits and the rehashes were half of the check's time (1.2 µs a key
 * over a million keys).
 */

/** Bytes of one page of key bytes; keys are never split across pages. */
const PAGE_BYTES = 1 << 20;
const PAGE_SHIFT = 20;
/** Entries of one page of a per-key array. */
const ENTRIES = 1 << 16;
const ENTRY_SHIFT = 16;
const ENTRY_MASK = ENTRIES - 1;

export class SeenKeys {
  /**
   * The keys' UTF-8 bytes. A key's place is a position in one address space where page p covers
   * [p × PAGE_BYTES, (p + 1) × PAGE_BYTES); a key that does not fit in the rest of a page starts
   * the next one.
   */
  private readonly pages: Buffer[] = [];
  /** Where key i ends; it starts where key i − 1 ended, or at its page's start (see `startOf`). */
  private readonly ends = new PagedUint32();
  private readonly rows = new PagedUint32();
  private readonly hashes = new PagedUint32();
  /** Open addressing, linear probing: key index + 1, 0 for an empty slot; kept at most half full. */
  private slots = new Uint32Array(2048);
  /**
   * Keys whose UTF-8 form could exceed a page (over 349,525 characters): kept by a Map, since they
   * are too rare to pay for. Which side a key is on depends only on its length, so it stays exact.
   */
  private readonly huge = new Map<string, number>();
  /** Where the next key's bytes go. */
  private used = 0;
  private count = 0;

  get size(): number {
    return this.count + this.huge.size;
  }

  /** The bytes its buffers hold (the benchmark's figure; the rest is a few fields). */
  get bytesHeld(): number {
    const pages = this.pages.reduce((sum, page) => sum + page.byteLength, 0);
    return pages + this.ends.bytesHeld + this.rows.bytesHeld + this.hashes.bytesHeld + this.slots.byteLength;
  }

  /**
   * The row that had `key` first; when `key` is new, it is recorded with `row` and the answer is
   * undefined.
   */
  firstRow(key: string, row: number): number | undefined {
    return this.find(key, row);
  }

  /** The row that had `key` first, or undefined: nothing is recorded. */
  rowOf(key: string): number | undefined {
    return this.find(key, null);
  }

  /** The row that had `key` first; a new key is recorded with `row` unless it is null. */
  private find(key: string, row: number | null): number | undefined {
    const most = key.length * 3;
    if (most > PAGE_BYTES) return row === null ? this.huge.get(key) : this.firstRowOfHuge(key, row);
    let start = this.used;
    // The rest of a page too short for the key (at most a key's worth) is left unused.
    if ((start & (PAGE_BYTES - 1)) + most > PAGE_BYTES) start = ((start >>> PAGE_SHIFT) + 1) * PAGE_BYTES;
    // A page added for a key that turned out to be seen stays for the next key.
    if (start >>> PAGE_SHIFT === this.pages.length) this.pages.push(Buffer.allocUnsafeSlow(PAGE_BYTES));
    const page = this.pages[start >>> PAGE_SHIFT] as Buffer;
    const at = start & (PAGE_BYTES - 1);
    const length = writeKey(page, at, key);
    const hash = fnv1a(page, at, at + length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) {
        // Not recorded: the bytes written past `used` are overwritten by the next key.
        if (row !== null) this.record(slot, start + length, row, hash);
        return undefined;
      }
      if (this.hashes.get(entry - 1) === hash && this.sameBytes(entry - 1, page, at, length)) {
        return this.rows.get(entry - 1);
      }
    }
  }

  private firstRowOfHuge(key: string, row: number): number | undefined {
    const first = this.huge.get(key);
    if (first === undefined) this.huge.set(key, row);
    return first;
  }

  /** Key `count`, whose bytes are already in place up to `end`, takes `slot`. */
  private record(slot: number, end: number, row: number, hash: number): void {
    const i = this.count;
    this.slots[slot] = i + 1;
    this.ends.set(i, end);
    this.rows.set(i, row);
    this.hashes.set(i, hash);
    this.used = end;
    this.count = i + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  /** Where key i starts: where the key before it ended, unless that is on an earlier page. */
  private startOf(i: number): number {
    const end = this.ends.get(i);
    const before = i === 0 ? 0 : this.ends.get(i - 1);
    if (end === before) return end;
    const page = (end - 1) >>> PAGE_SHIFT;
    return before >>> PAGE_SHIFT === page ? before : page * PAGE_BYTES;
  }

  private sameBytes(i: number, page: Buffer, at: number, length: number): boolean {
    const start = this.startOf(i);
    if (this.ends.get(i) - start !== length) return false;
    const other = this.pages[start >>> PAGE_SHIFT] as Buffer;
    const from = start & (PAGE_BYTES - 1);
    // A plain loop: keys are short, and a native compare costs more to call than it saves.
    for (let k = 0; k < length; k++) if (other[from + k] !== page[at + k]) return false;
    return true;
  }

  /** Doubles the slot table, from the hashes kept. */
  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = this.hashes.get(i) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    this.slots = slots;
  }
}

/** A Uint32 array that grows by pages of ENTRIES, never copied. */
class PagedUint32 {
  private readonly pages: Uint32Array[] = [];

  get bytesHeld(): number {
    return this.pages.length * ENTRIES * 4;
  }

  get(i: number): number {
    return (this.pages[i >>> ENTRY_SHIFT] as Uint32Array)[i & ENTRY_MASK] as number;
  }

  /** Sets entry i; i is at most one past the last entry set. */
  set(i: number, value: number): void {
    const p = i >>> ENTRY_SHIFT;
    if (p === this.pages.length) this.pages.push(new Uint32Array(ENTRIES));
    (this.pages[p] as Uint32Array)[i & ENTRY_MASK] = value;
  }
}

/**
 * Writes `key` as UTF-8 at `at`; returns its length in bytes. An ASCII key (most SKUs) is copied
 * by a loop: for a dozen characters, Buffer's own write costs more to call into than to do.
 */
function writeKey(page: Buffer, at: number, key: string): number {
  const length = key.length;
  for (let i = 0; i < length; i++) {
    const code = key.charCodeAt(i);
    if (code >= 0x80) return page.write(key, at, 'utf8');
    page[at + i] = code;
  }
  return length;
}

/** 32-bit FNV-1a of bytes[start, end), with a final mix so that the low bits (the slot) spread. */
function fnv1a(bytes: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}
