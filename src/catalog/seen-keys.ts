/**
 * The match keys already seen in a source, each with the row that had it first (the duplicate-key
 * check). A Map<string, number> cost ~61 bytes per key (58.5 MiB for a million keys like
 * `SKU-0000001`, BENCHMARKS.md); this keeps the keys' UTF-8 bytes end to end in one growing buffer
 * and finds them through an open-addressing table of typed arrays: ~31 bytes per such key, and no
 * object per key for the garbage collector to walk. Exact: a hash that matches is confirmed by
 * comparing the bytes, so two keys are never taken for one.
 */
export class SeenKeys {
  /** The keys' UTF-8 bytes, end to end; key i spans starts[i] to starts[i + 1]. */
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private starts = new Uint32Array(1024);
  private rows = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  /** Open addressing, linear probing: key index + 1, 0 for an empty slot; kept at most half full. */
  private slots = new Uint32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The bytes its buffers hold (the benchmark's figure; the rest is a few fields). */
  get bytesHeld(): number {
    return [this.bytes, this.starts, this.rows, this.hashes, this.slots].reduce(
      (sum, a) => sum + a.byteLength,
      0,
    );
  }

  /**
   * The row that had `key` first; when `key` is new, it is recorded with `row` and the answer is
   * undefined.
   */
  firstRow(key: string, row: number): number | undefined {
    const start = this.starts[this.count] as number;
    this.reserveBytes(start, key.length * 3);
    const end = start + this.bytes.write(key, start, 'utf8');
    const hash = fnv1a(this.bytes, start, end);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === 0) {
        this.record(slot, end, hash, row);
        return undefined;
      }
      const i = entry - 1;
      if (this.hashes[i] === hash && this.sameBytes(i, start, end)) return this.rows[i];
    }
  }

  /** Key `count`, whose bytes are already in place up to `end`, takes `slot`. */
  private record(slot: number, end: number, hash: number, row: number): void {
    const i = this.count;
    if (i + 2 > this.starts.length) {
      this.starts = grown(this.starts);
      this.rows = grown(this.rows);
      this.hashes = grown(this.hashes);
    }
    this.slots[slot] = i + 1;
    this.rows[i] = row;
    this.hashes[i] = hash;
    this.starts[i + 1] = end;
    this.count = i + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private sameBytes(i: number, start: number, end: number): boolean {
    const from = this.starts[i] as number;
    const to = this.starts[i + 1] as number;
    return to - from === end - start && this.bytes.compare(this.bytes, start, end, from, to) === 0;
  }

  private reserveBytes(used: number, more: number): void {
    if (used + more <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, used + more));
    this.bytes.copy(bigger, 0, 0, used);
    this.bytes = bigger;
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = (this.hashes[i] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    this.slots = slots;
  }
}

function grown(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
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
