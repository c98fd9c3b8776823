import { describe, expect, it } from 'vitest';
import { parseJob } from '../../src/cli/job-file.js';
import {
  isSellerName,
  keyHolderText,
  namedSellerRef,
  parseSellerName,
  sellerOfRun,
} from '../../src/queue/seller-names.js';
import { sellerRef } from '../../src/sellers/seller-ref.js';
import { UsageError } from '../../src/usage-error.js';

const BASE = 'https://api.example.com/api/v1';

describe('the seller name rule', () => {
  it.each(['acme', 'a', '0shop', 'shop-b.eu_2', 'a'.repeat(63)])('accepts %s', (name) => {
    expect(parseSellerName(name)).toBe(name);
  });

  it.each([
    '',
    'Acme',
    '-acme',
    '.acme',
    '_acme',
    'ac me',
    'acme/eu',
    'a'.repeat(64),
    'ac\u001b[2Jme',
    'café',
  ])('refuses %j, saying the rule in one line', (name) => {
    expect(isSellerName(name)).toBe(false);
    expect(() => parseSellerName(name)).toThrow(UsageError);
    expect(() => parseSellerName(name)).toThrow(
      /--seller takes a seller name of lower-case letters, digits, \. _ -/,
    );
  });
});

describe("a named seller's ref", () => {
  it('depends on the base URL and the name only: 16 hex, the same with a trailing slash', () => {
    const ref = namedSellerRef(BASE, 'acme');
    expect(ref).toMatch(/^[0-9a-f]{16}$/);
    expect(namedSellerRef(`${BASE}/`, 'acme')).toBe(ref);
    expect(namedSellerRef(BASE, 'acme-2')).not.toBe(ref);
    expect(namedSellerRef('https://other.example.com/api/v1', 'acme')).not.toBe(ref);
  });

  it("is never a key's ref, even for a key that reads like the name", () => {
    expect(namedSellerRef(BASE, 'acme')).not.toBe(sellerRef(BASE, 'acme'));
  });
});

/**
 * SellerRegistry's lookups over plain maps: aliases (key fingerprint → ref), names (ref → name),
 * products recorded and runs listed (ref → count).
 */
function lookup(
  aliases: Record<string, string>,
  names: Record<string, string>,
  products: Record<string, number> = {},
  runs: Record<string, number> = {},
) {
  return {
    aliases,
    resolveRef: async (fp: string) => aliases[fp] ?? fp,
    nameOf: async (ref: string) => names[ref] ?? null,
    claimKey: async (fp: string, ref: string) => {
      const current = aliases[fp] ?? fp;
      if (current === ref) return null;
      const holder = {
        ref: current,
        name: names[current] ?? null,
        products: products[current] ?? 0,
        runs: runs[current] ?? 0,
      };
      if (holder.name || holder.products > 0 || holder.runs > 0) return holder;
      aliases[fp] = ref;
      return null;
    },
  };
}

describe('the seller of a run', () => {
  const api = { baseUrl: BASE, keyEnv: 'SELLER_API_KEY_ACME', keyFingerprint: sellerRef(BASE, 'sk_1') };

  it("named: the name's ref, whatever the key, with the key linked to it", async () => {
    const sellers = lookup({}, {});
    expect(await sellerOfRun(sellers, api, 'acme')).toEqual({
      ref: namedSellerRef(BASE, 'acme'),
      name: 'acme',
    });
    expect(sellers.aliases[api.keyFingerprint]).toBe(namedSellerRef(BASE, 'acme'));
  });

  it("unnamed: the key's seller as before, with the name that seller was given", async () => {
    expect(await sellerOfRun(lookup({}, {}), api, undefined)).toEqual({
      ref: api.keyFingerprint,
      name: null,
    });
    const acme = namedSellerRef(BASE, 'acme');
    const linked = lookup({ [api.keyFingerprint]: acme }, { [acme]: 'acme' });
    expect(await sellerOfRun(linked, api, undefined)).toEqual({ ref: acme, name: 'acme' });
  });

  it("refuses a name given with another named seller's key, naming the variable and that seller", async () => {
    const shopB = namedSellerRef(BASE, 'shop-b');
    const sellers = lookup({ [api.keyFingerprint]: shopB }, { [shopB]: 'shop-b' });
    await expect(sellerOfRun(sellers, api, 'acme')).rejects.toThrow(
      "seller acme: the key in SELLER_API_KEY_ACME is already seller shop-b's key",
    );
    expect(sellers.aliases[api.keyFingerprint]).toBe(shopB);
  });
});

describe('a key that already serves a seller with products recorded', () => {
  const api = { baseUrl: BASE, keyEnv: 'SELLER_API_KEY', keyFingerprint: sellerRef(BASE, 'sk_1') };

  it('is not linked to a name: the refusal names that seller and its products, and says to run without --seller', async () => {
    const sellers = lookup({}, {}, { [api.keyFingerprint]: 26 });
    await expect(sellerOfRun(sellers, api, 'acme')).rejects.toThrow(
      `seller acme: the key in SELLER_API_KEY is already seller ${api.keyFingerprint}'s key (26 products recorded), and a key is one seller's account: run it without --seller`,
    );
    expect(sellers.aliases).toEqual({});
  });

  it('is said in the singular for one product', () => {
    expect(keyHolderText({ ref: 'a1b2', name: null, products: 1, runs: 1 })).toBe(
      "seller a1b2's key (1 product recorded)",
    );
  });
});

describe('a key that already serves a seller with runs but no product created (its products were on the API)', () => {
  const api = { baseUrl: BASE, keyEnv: 'SELLER_API_KEY', keyFingerprint: sellerRef(BASE, 'sk_1') };

  it('is not linked to a name either: the refusal counts its runs', async () => {
    const sellers = lookup({}, {}, {}, { [api.keyFingerprint]: 2 });
    await expect(sellerOfRun(sellers, api, 'acme')).rejects.toThrow(
      `seller acme: the key in SELLER_API_KEY is already seller ${api.keyFingerprint}'s key (2 runs recorded), and a key is one seller's account: run it without --seller`,
    );
    expect(sellers.aliases).toEqual({});
  });

  it('says what it has kept when its runs have expired', () => {
    expect(keyHolderText({ ref: 'a1b2', name: null, products: 0, runs: 0 })).toBe(
      "seller a1b2's key (a seller with records of its own)",
    );
  });
});

describe('a job file names its seller with seller:', () => {
  it('reads a name that follows the rule, and refuses one that does not, naming the file and the field', () => {
    expect(parseJob('source: a.csv\nseller: acme\n', '/srv/jobs/nightly.yml').seller).toBe('acme');
    expect(() => parseJob('source: a.csv\nseller: Acme Shop\n', '/srv/jobs/nightly.yml')).toThrow(
      /^nightly\.yml: seller: must be a seller name of lower-case letters/,
    );
  });
});
