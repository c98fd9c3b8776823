import { Redis } from 'ioredis';

/** What a seller's id map (`…:seller:<ref>:ids` and `…:ids-reverse`) holds in Redis. */
export interface IdMapBytes {
  label: string;
  products: number;
  /** MEMORY USAGE … SAMPLES 0 of the map and of its reverse. */
  mapBytes: number;
  reverseBytes: number;
  /** Average byte length of one entry of the map: its field (the match key) and its JSON value. */
  keyBytes: number;
  valueBytes: number;
  /** One entry's JSON value, as an example. */
  example: string;
}

/**
 * Measures the id map of the one seller under `prefix` (its ref is read from the keys), whose
 * sandbox holds `products` products; throws unless both hashes hold exactly one entry per product.
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
    const maps: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:seller:*:ids`, 'COUNT', 1000);
      cursor = next;
      maps.push(...keys);
    } while (cursor !== '0');
    const [map] = maps;
    if (maps.length !== 1 || map === undefined) {
      throw new Error(`expected the id map of one seller under ${prefix}, found ${maps.length}`);
    }
    const reverse = `${map}-reverse`;
    const [entries, reverseEntries] = [await redis.hlen(map), await redis.hlen(reverse)];
    if (entries !== products || reverseEntries !== products) {
      throw new Error(
        `${label}: the id map holds ${entries} entries and its reverse ${reverseEntries}, for ${products} products`,
      );
    }
    let keyBytes = 0;
    let valueBytes = 0;
    let example = '';
    cursor = '0';
    do {
      const [next, flat] = await redis.hscan(map, cursor, 'COUNT', 1000);
      cursor = next;
      for (let i = 0; i + 1 < flat.length; i += 2) {
        keyBytes += Buffer.byteLength(flat[i] as string);
        valueBytes += Buffer.byteLength(flat[i + 1] as string);
        example ||= flat[i + 1] as string;
      }
    } while (cursor !== '0');
    const usage = async (key: string) => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    return {
      label,
      products,
      mapBytes: await usage(map),
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
        `${m.keyBytes.toFixed(1)} B key + ${m.valueBytes.toFixed(1)} B JSON value, e.g. ${m.example}`,
    );
  }
}
