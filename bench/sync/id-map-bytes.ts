import { Redis } from 'ioredis';

/** What a seller's id map (its buckets `…:seller:<ref>:ids:<n>` and `…:ids-reverse:<n>`) holds in Redis. */
export interface IdMapBytes {
  label: string;
  products: number;
  /** MEMORY USAGE … SAMPLES 0 of the map's buckets and of its reverse's, summed. */
  mapBytes: number;
  reverseBytes: number;
  /** Average byte length of one entry of the map: its field (the match key) and its stored value. */
  keyBytes: number;
  valueBytes: number;
  /** One entry's stored value, as an example. */
  example: string;
}

async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

/**
 * Measures the id map of the one seller under `prefix` (its ref is read from the keys), whose
 * sandbox holds `products` products; throws unless the map and its reverse hold exactly one entry
 * per product.
 */
export async function idMapBytes(
  url: string,
  prefix: string,
  label: string,
  products: number,
): Promise<IdMapBytes> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const buckets = await keysMatching(redis, `${prefix}:seller:*:ids:*`);
    const reverse = await keysMatching(redis, `${prefix}:seller:*:ids-reverse:*`);
    const sellers = new Set([...buckets, ...reverse].map((key) => key.split(':seller:')[1]?.split(':')[0]));
    if (sellers.size !== 1) {
      throw new Error(`expected the id map of one seller under ${prefix}, found ${sellers.size}`);
    }
    const count = async (keys: string[]) => {
      let sum = 0;
      for (const key of keys) sum += await redis.hlen(key);
      return sum;
    };
    const [entries, reverseEntries] = [await count(buckets), await count(reverse)];
    if (entries !== products || reverseEntries !== products) {
      throw new Error(
        `${label}: the id map holds ${entries} entries and its reverse ${reverseEntries}, for ${products} products`,
      );
    }
    let keyBytes = 0;
    let valueBytes = 0;
    let example = '';
    for (const bucket of buckets) {
      const flat = await redis.hgetall(bucket);
      for (const [key, value] of Object.entries(flat)) {
        keyBytes += Buffer.byteLength(key);
        valueBytes += Buffer.byteLength(value);
        example ||= value;
      }
    }
    const usage = async (keys: string[]) => {
      let sum = 0;
      for (const key of keys) sum += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
      return sum;
    };
    return {
      label,
      products,
      mapBytes: await usage(buckets),
      reverseBytes: await usage(reverse),
      keyBytes: keyBytes / entries,
      valueBytes: valueBytes / entries,
      example,
    };
  } finally {
    redis.disconnect();
  }
}

export function printIdMapBytes(all: IdMapBytes[]): void {
  for (const m of all) {
    const perProduct = (bytes: number) => (bytes / m.products).toFixed(1);
    console.log(
      `id map ${m.label}: ${m.products} products; ${perProduct(m.mapBytes + m.reverseBytes)} B/product ` +
        `(map ${perProduct(m.mapBytes)}, reverse ${perProduct(m.reverseBytes)}); an entry: ` +
        `${m.keyBytes.toFixed(1)} B key + ${m.valueBytes.toFixed(1)} B value, e.g. ${m.example}`,
    );
  }
}
