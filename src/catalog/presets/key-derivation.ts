/**
 * What a preset made a row's derived key of (Draft's `derivedFrom`). The seller gave no SKU, so a
 * second row deriving the same key is told what made it, why two rows made one, and what sets them
 * apart (source-keys.ts), not of a "duplicate sku" the file does not hold. The keys themselves stay
 * as they are: the products made before are matched by them.
 */
export interface KeyDerivation {
  /** What the key was made of, as this row has it: `the title "Latte Paw - Squishy"`. */
  from: string;
  /** Why another row makes the same key: `titles that differ only in case or punctuation make one key`. */
  why: string;
  /** What sets the rows apart: `give the listings a SKU, or titles that differ in words`. */
  fix: string;
}

/**
 * A key made of a name's slug (`etsy:<title>`): case and punctuation are left out of it, so two
 * names that differ only so make one key.
 */
export function fromName(what: string, name: string, skuColumn: string, things: string): KeyDerivation {
  return {
    from: `the ${what} "${name}"`,
    why: `${what}s that differ only in case or punctuation make one key`,
    fix: `give the ${things} a ${skuColumn}, or ${what}s that differ in words`,
  };
}

/** A key made of the platform's own id (`woocommerce:id:<ID>`): one product's, so the row is there twice. */
export function fromId(column: string, id: string): KeyDerivation {
  return {
    from: `the ${column} ${id}`,
    why: `the file holds that ${column} twice`,
    fix: 'keep one of the rows',
  };
}

/** A variant's key, made of what names its product and of its option values (`shopify:<handle>:<values>`). */
export function fromVariant(variant: {
  /** What names the product: `the handle "shirt"`. */
  product: string;
  /** `option values`, `attribute values`. */
  valuesName: string;
  values: readonly string[];
  /** The product a variant is one of, and the variants: `handle`, `variants`. */
  one: string;
  things: string;
  skuColumn: string;
}): KeyDerivation {
  const { product, valuesName, values, things } = variant;
  return {
    from:
      values.length > 0
        ? `${product} and ${valuesName} "${values.join('/')}"`
        : `${product}, without ${valuesName}`,
    why: `${things} of one ${variant.one} with the same ${valuesName} make one key`,
    fix: `give the ${things} a ${variant.skuColumn}, or ${valuesName} of their own`,
  };
}
