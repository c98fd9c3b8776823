import {
  invisibleEdge,
  invisibleEdgeForms,
  shownKey,
  withoutInvisibleEdges,
} from '../catalog/invisible-text.js';
import type { ProductUpsert } from '../interfaces.js';

/**
 * Upgrading over keys with an invisible character at their edge (docs/sources.md). Such a key
 * (`\u200bZW-1`) is refused now (catalog/invisible-text.ts), and the refusal tells the seller to
 * remove the character; an earlier version sent it as written, so the marketplace has the product
 * under it and the id map records it so. The clean row (`ZW-1`), finding no product under its key,
 * finds that one (former-key-forms.ts): it is the row's. A run that read no list looks for it in the
 * id map under the key with one invisible character before or after it. An entry of FORMER_KEY_FORMS
 * (former-key-forms.ts, which checks its shape).
 */
export const INVISIBLE_EDGE = {
  name: 'invisibleEdge',
  listed: 'invisibleEdgeListed',
  index: 'invisible-edge',
  /** Two looks: the first character and the last. */
  is: (key: string) => invisibleEdge(key) !== undefined,
  clean: withoutInvisibleEdges,
  asks: (upsert: ProductUpsert) => (upsert.key === '' ? undefined : upsert.key),
  recorded: (upsert: ProductUpsert) => (upsert.key === '' ? [] : invisibleEdgeForms(upsert.key)),
  words: (key: string) => {
    const edge = invisibleEdge(key);
    const at = edge?.where === 'ends' ? 'end' : 'start';
    return { shown: `"${shownKey(key)}"`, why: ` (an invisible ${edge?.code} at its ${at})` };
  },
} as const;

/** A listed key's clean form and the key, if it has an invisible edge character (missing-scan.ts). */
export function cleanKeyPair(key: string): [string, string] | undefined {
  if (!INVISIBLE_EDGE.is(key)) return undefined;
  const clean = withoutInvisibleEdges(key);
  return clean === '' ? undefined : [clean, key];
}
