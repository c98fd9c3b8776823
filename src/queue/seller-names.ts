import { createHash } from 'node:crypto';
import { countOf } from '../count-words.js';
import type { KeyHolder } from '../sellers/key-holder.js';
import { UsageError } from '../usage-error.js';

/**
 * Sellers with names (`--seller acme`, issue 13). A named seller's ref is a fingerprint of the base
 * URL and the name, not of the key: a rotated or fixed key lands in the same queue, id map and
 * request counter. Unnamed sellers keep the key's fingerprint (seller-ref.ts), so nothing moves for
 * a deployment that never names one.
 */
const SELLER_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export function isSellerName(text: string): boolean {
  return SELLER_NAME.test(text);
}

/** `--seller NAME`: lower case letters, digits, `.`, `_`, `-`, up to 63, starting with a letter or digit. */
export function parseSellerName(value: string, option = '--seller'): string {
  if (isSellerName(value)) return value;
  const shown = value.length > 70 ? `${value.slice(0, 70)}…` : value;
  throw new UsageError(
    `${option} takes a seller name of lower-case letters, digits, . _ - (starting with a letter or digit, at most 63), not "${shown}"`,
  );
}

/** The ref of a named seller: the same for every key it ever has. Its own domain (`name\n`) keeps it apart from key refs. */
export function namedSellerRef(baseUrl: string, name: string): string {
  const normalisedBase = baseUrl.replace(/\/+$/, '');
  return createHash('sha256').update(`name\n${normalisedBase}\n${name}`).digest('hex').slice(0, 16);
}

/** How a seller is shown: `acme (3f2a…)` when named, its ref otherwise. */
export function sellerLabel(ref: string, name: string | null | undefined): string {
  return name ? `${name} (${ref})` : ref;
}

/**
 * `seller shop-b's key`, or for a seller known by its key only `seller 3f2a…'s key (26 products
 * recorded)`, `(2 runs recorded)` when its runs created none (its products were on the API already):
 * what tells the user the key is taken, and by what.
 */
export function keyHolderText(holder: KeyHolder): string {
  if (holder.name) return `seller ${holder.name}'s key`;
  const what =
    holder.products > 0
      ? `${countOf(holder.products, 'product')} recorded`
      : holder.runs > 0
        ? `${countOf(holder.runs, 'run')} recorded`
        : 'a seller with records of its own';
  return `seller ${holder.ref}'s key (${what})`;
}

/** What a run needs to know of the sellers in Redis to pick its seller. */
export interface SellerLookup {
  resolveRef(keyFingerprint: string): Promise<string>;
  claimKey(keyFingerprint: string, ref: string): Promise<KeyHolder | null>;
  nameOf(ref: string): Promise<string | null>;
}

/**
 * The seller a run with this key (and `--seller NAME`, when given) serves. Named: the name's ref,
 * the key linked to it (refused when the key is another seller's: named, or with runs or products
 * recorded, whose history would be left behind: key-holder.ts). Unnamed: the key's seller,
 * as before, with the name it may have been given by an earlier run.
 */
export async function sellerOfRun(
  sellers: SellerLookup,
  api: { baseUrl: string; keyEnv: string; keyFingerprint: string },
  name: string | undefined,
): Promise<{ ref: string; name: string | null }> {
  if (name === undefined) {
    const ref = await sellers.resolveRef(api.keyFingerprint);
    return { ref, name: await sellers.nameOf(ref) };
  }
  const ref = namedSellerRef(api.baseUrl, name);
  const other = await sellers.claimKey(api.keyFingerprint, ref);
  if (other !== null)
    throw new UsageError(
      `seller ${name}: the key in ${api.keyEnv} is already ${keyHolderText(other)}` +
        (other.name
          ? " (a key is one seller's account)"
          : ", and a key is one seller's account: run it without --seller"),
    );
  return { ref, name };
}
