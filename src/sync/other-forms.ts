import { otherForms } from '../catalog/key-forms.js';
import type { ProductUpsert } from '../interfaces.js';
import type { KnownProduct } from './id-map.js';
import type { FactReads } from './id-row-facts.js';

/**
 * For rows that found no product under their key as written, the product listed or recorded under
 * the same key in another Unicode form (catalog/key-forms.ts): its id goes into `ids`, what the id
 * map knows of it, and under which form, is returned by row. Rows whose key is plain ASCII cost
 * nothing here. Part of a chunk's look-up (remote-index.ts).
 */
export async function lookUpOtherForms(
  reads: Pick<FactReads, 'redis' | 'keys' | 'runId' | 'idMap'>,
  upserts: readonly ProductUpsert[],
  ids: (string | null)[],
): Promise<Map<number, { form: string; product: KnownProduct }>> {
  const knownByRow = new Map<number, { form: string; product: KnownProduct }>();
  const asked = upserts.flatMap((upsert, i) =>
    ids[i] === null ? otherForms(upsert.key).map((form) => ({ i, form })) : [],
  );
  if (asked.length === 0) return knownByRow;
  const forms = asked.map(({ form }) => form);
  const [known, idsByForm] = await Promise.all([
    reads.idMap.getMany(forms),
    reads.redis.hmget(reads.keys.keyToId(reads.runId), ...forms),
  ]);
  asked.forEach(({ i, form }, at) => {
    if (ids[i] !== null) return;
    const product = known.get(form);
    const id = idsByForm[at] ?? product?.id ?? null;
    if (id === null) return;
    ids[i] = id;
    if (product) knownByRow.set((upserts[i] as ProductUpsert).row, { form, product });
  });
  return knownByRow;
}
