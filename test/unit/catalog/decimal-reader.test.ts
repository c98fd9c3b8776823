import { describe, expect, it } from 'vitest';
import {
  createDecimalReader,
  type DecimalChoice,
  decimalChoice,
} from '../../../src/catalog/decimal-reader.js';

/** The values read in order by one reader: each as its decimal, or `?` where it reads two ways. */
function readAll(choice: DecimalChoice, texts: string[]): string[] {
  const reader = createDecimalReader(choice);
  return texts.map((text) => {
    const parsed = reader.read(text);
    if (!parsed.ok) return `invalid: ${parsed.reason}`;
    return parsed.ambiguous ? '?' : parsed.value;
  });
}

/** The summary's decimals line after the values read in order by one reader. */
function lineAfter(choice: DecimalChoice, texts: string[]): string | undefined {
  const reader = createDecimalReader(choice);
  for (const text of texts) reader.read(text);
  return reader.decision().line;
}

const dotPreset: DecimalChoice = { preset: { style: 'dot', name: 'shopify' } };
const semicolon = { semicolon: true };

describe('the decimal style of a source whose preset writes dots', () => {
  it.each(['226,796185', '12,5', '0,99', '1.299,00'])(
    'follows the file over the preset once a value can only be a comma decimal (%s)',
    (shown) => {
      // Before: 453592, the preset's dot over the file's own evidence (a factor of 1000).
      expect(readAll(dotPreset, [shown, '453,592'])[1]).toBe('453.592');
      expect(readAll({ ...dotPreset, ...semicolon }, [shown, '453,592'])[1]).toBe('453.592');
    },
  );

  it('reads a ;-file that writes a comma-looking number as comma-decimal', () => {
    expect(readAll({ ...dotPreset, ...semicolon }, ['453,592'])).toEqual(['453.592']);
    // From then on its dot groups thousands, as in any comma-decimal file.
    expect(readAll({ ...dotPreset, ...semicolon }, ['453,592', '1.250'])).toEqual(['453.592', '1250']);
  });

  it("keeps the preset's dot where the file shows nothing else: its own export's values", () => {
    // Shopware 6 writes `;` and dot decimals: 1.250 kg is 1.25.
    expect(readAll({ ...dotPreset, ...semicolon }, ['1.250'])).toEqual(['1.25']);
    expect(readAll(dotPreset, ['453.592', '1,234', '1,234.50'])).toEqual(['453.592', '1234', '1234.5']);
    // A file that shows dots: a comma groups thousands.
    expect(readAll(dotPreset, ['226.796185', '1,234'])).toEqual(['226.796185', '1234']);
  });

  it('refuses a value that reads two ways when the file shows both styles', () => {
    expect(readAll(dotPreset, ['12,5', '226.796185', '453,592', '1.250'])).toEqual([
      '12.5',
      '226.796185',
      '?',
      '?',
    ]);
  });
});

describe('the decimal style of a source no preset fixes (as before)', () => {
  it('learns it from the first value that shows it', () => {
    expect(readAll({}, ['12,50', '1,299'])).toEqual(['12.5', '1.299']);
    expect(readAll({}, ['12.50', '1,299'])).toEqual(['12.5', '1299']);
  });

  it('refuses a value that reads two ways before the file shows its style', () => {
    expect(readAll({}, ['1,299', '1.299', '12.50'])).toEqual(['?', '?', '12.5']);
  });

  it('reads a ;-file with comma decimals until it shows otherwise', () => {
    expect(readAll(semicolon, ['1,299', '1.250'])).toEqual(['1.299', '1250']);
    expect(readAll(semicolon, ['12.50', '1.250'])).toEqual(['12.5', '1.25']);
  });
});

describe('a fixed style', () => {
  it("is used whatever the file shows: a mapping file's decimal:, PrestaShop's either", () => {
    const choice = decimalChoice({ mapping: { decimal: 'dot', origin: 'shop.yml' } }, 'dot', 'shopify');
    expect(readAll(choice, ['226,796185', '453,592'])).toEqual(['226.796185', '453592']);
    expect(readAll(decimalChoice({}, 'either', 'prestashop'), ['12.50', '1,250'])).toEqual(['12.5', '1.25']);
  });
});

describe('decimalChoice', () => {
  it("takes a preset's dot as its default only, and a ;-delimiter as a clue", () => {
    expect(decimalChoice({ delimiter: ';' }, 'dot', 'magento')).toEqual({
      preset: { style: 'dot', name: 'magento' },
      semicolon: true,
    });
    expect(decimalChoice({ mapping: { decimal: 'auto', origin: 'm.yml' } }, 'dot', 'magento')).toEqual({
      preset: { style: 'dot', name: 'magento' },
    });
    expect(decimalChoice({ decimalStyle: 'comma' }, 'dot', 'magento')).toEqual({
      fixed: { style: 'comma', by: 'as asked' },
    });
  });
});

describe("the summary's decimals line", () => {
  it('says the style used and why', () => {
    expect(lineAfter(dotPreset, ['25', '226,796185'])).toBe(
      "decimals with a comma (the file shows 226,796185, over the shopify preset's dot)",
    );
    expect(lineAfter({ ...dotPreset, ...semicolon }, ['453,592'])).toBe(
      "decimals with a comma (the file is ;-delimited and writes 453,592, over the shopify preset's dot)",
    );
    expect(lineAfter(dotPreset, ['226.796185'])).toBe('decimals with a dot (the file shows 226.796185)');
    expect(lineAfter(dotPreset, ['25'])).toBe(
      "decimals with a dot (the shopify preset's: no value of the first rows shows otherwise)",
    );
    expect(lineAfter(dotPreset, ['12,5', '12.50'])).toBe(
      'decimals: the file shows both a dot (12.50) and a comma (12,5): a value that reads two ways (1,299) is refused',
    );
    expect(lineAfter(semicolon, ['25'])).toBe(
      'decimals: a comma unless the file shows otherwise (the file is ;-delimited)',
    );
    expect(lineAfter({}, ['25'])).toBeUndefined();
    expect(
      lineAfter(decimalChoice({ mapping: { decimal: 'comma', origin: 'shop.yml' } }, 'auto', 'generic'), []),
    ).toBe('decimals with a comma (decimal: comma in shop.yml)');
    expect(lineAfter(decimalChoice({}, 'either', 'prestashop'), [])).toBe(
      'decimals with a dot or a comma, never a thousands separator',
    );
  });
});

describe("the decimals line of a store's API answers", () => {
  const store = decimalChoice({ fromStoreApi: true }, 'dot', 'shopify');

  it('is not said: the API writes one style, and there is no file to have shown it', () => {
    expect(lineAfter(store, ['40.00'])).toBeUndefined();
    expect(lineAfter(store, [])).toBeUndefined();
    expect(
      lineAfter(decimalChoice({ fromStoreApi: true }, 'auto', 'woocommerce'), ['30.00']),
    ).toBeUndefined();
  });

  it('is said, in words for the API, when its answers show both styles', () => {
    expect(lineAfter(store, ['12,5', '12.50'])).toBe(
      "decimals: the store's API shows both a dot (12.50) and a comma (12,5): a value that reads two ways (1,299) is refused",
    );
  });

  it('is said when the user fixed the style', () => {
    expect(
      lineAfter(decimalChoice({ fromStoreApi: true, decimalStyle: 'comma' }, 'dot', 'shopify'), []),
    ).toBe('decimals with a comma (as asked)');
  });
});
