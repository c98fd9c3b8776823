import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { productsRecorded } from '../sync/match-space.js';
import { type KeyHolder, keyHolder } from './key-holder.js';

export interface SellerInfo {
  ref: string;
  baseUrl: string;
  queueName: string;
  /** `--seller NAME`: the seller's name, when it was given one. */
  name?: string;
}

/** Fingerprints asked in one HMGET: far below what a call's argument list holds. */
const RESOLVE_BATCH = 10_000;

/**
 * Which sellers exist and which keys serve them, in Redis: the registry (a set of refs, and a hash per
 * seller of its base URL, queue and name) that workers read to find the queues they can serve, and
 * the links from a key's fingerprint to the seller it serves (`--seller`, `resume` with a new key).
 * Kept apart from a seller's pauses and quota (seller-state.ts): imports, workers and commands look
 * sellers up here without touching the request path's state, and nothing here is cached in-process.
 */
export class SellerRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async register(info: SellerInfo): Promise<void> {
    // Two commands, not a MULTI: on a cluster the registry and the seller's hash live in different
    // slots. The hash first: a process stopped between the two leaves a hash no worker looks at
    // (registered() lists the set), and the next import of the seller registers it again.
    await this.redis.hset(this.keys.seller(info.ref), {
      baseUrl: info.baseUrl,
      queueName: info.queueName,
      ...(info.name ? { name: info.name } : {}),
    });
    await this.redis.sadd(this.keys.sellers, info.ref);
  }

  /** How many sellers are registered (one command): a worker reads the registry again when it changes. */
  async registeredCount(): Promise<number> {
    return this.redis.scard(this.keys.sellers);
  }

  /**
   * How many keys are linked to a seller other than their own fingerprint's (`--seller`, `resume`
   * with a new key): one command, read with registeredCount, so that a worker holding a key that
   * was just linked serves its seller at once.
   */
  async linkedCount(): Promise<number> {
    return this.redis.hlen(this.keys.sellerAliases);
  }

  /** Every registered seller, by ref (a set has no order of its own; every listing needs one). */
  async registered(): Promise<SellerInfo[]> {
    const refs = (await this.redis.smembers(this.keys.sellers)).sort();
    // Sent together, not one round trip after another: a worker reads this every few seconds, with
    // thousands of sellers registered (issue 13).
    const hashes = await Promise.all(
      refs.map((ref) => this.redis.hmget(this.keys.seller(ref), 'baseUrl', 'queueName', 'name')),
    );
    const infos: SellerInfo[] = [];
    refs.forEach((ref, i) => {
      const [baseUrl, queueName, name] = hashes[i] ?? [];
      if (baseUrl && queueName) infos.push({ ref, baseUrl, queueName, ...(name ? { name } : {}) });
    });
    return infos;
  }

  /**
   * The sellers that keys belong to, by fingerprint (resolveRef for many in one round trip per
   * RESOLVE_BATCH: a keys file of 150,000 keys overflowed the call stack as one argument list).
   */
  async resolveRefs(keyFingerprints: readonly string[]): Promise<string[]> {
    const refs: string[] = [];
    for (let start = 0; start < keyFingerprints.length; start += RESOLVE_BATCH) {
      const batch = keyFingerprints.slice(start, start + RESOLVE_BATCH);
      const linked = await this.redis.hmget(this.keys.sellerAliases, ...batch);
      refs.push(...batch.map((fingerprint, i) => linked[i] ?? fingerprint));
    }
    return refs;
  }

  /** The seller a key belongs to: its own fingerprint, unless `resume` linked it to an earlier seller. */
  async resolveRef(keyFingerprint: string): Promise<string> {
    return (await this.redis.hget(this.keys.sellerAliases, keyFingerprint)) ?? keyFingerprint;
  }

  /** Links a new key (by fingerprint) to an existing seller; nothing reversible is stored. */
  async linkKey(keyFingerprint: string, ref: string): Promise<void> {
    await this.redis.hset(this.keys.sellerAliases, keyFingerprint, ref);
  }

  /** The seller's name (`--seller`), or null for a seller known by its key's fingerprint only. */
  async nameOf(ref: string): Promise<string | null> {
    return (await this.redis.hget(this.keys.seller(ref), 'name')) || null;
  }

  /** How many products the seller's id maps hold (every match field's): what its runs would find again by key. */
  async productsRecorded(ref: string): Promise<number> {
    return productsRecorded(this.redis, this.keys, ref);
  }

  /**
   * Makes a key (by fingerprint) serve the seller `ref` (a named seller's, or a paused one's on
   * `resume`), so that workers holding it find the seller. A key is one seller's account: when the
   * seller it already serves has anything recorded (a name, runs, its id map, limits learned, other
   * keys: key-holder.ts), nothing is linked and that seller is returned (moving the key would leave
   * its history behind, and a SKU-less catalog would be created again); null once the key serves `ref`.
   */
  async claimKey(keyFingerprint: string, ref: string): Promise<KeyHolder | null> {
    const current = await this.resolveRef(keyFingerprint);
    if (current === ref) return null;
    const holder = await keyHolder(this.redis, this.keys, current, keyFingerprint);
    if (holder !== null) return holder;
    await this.linkKey(keyFingerprint, ref);
    return null;
  }
}
