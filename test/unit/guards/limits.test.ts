import { describe, expect, it } from 'vitest';
import {
  exceeds,
  lastSentPriceRefusal,
  parseCountOrPercent,
  parsePercent,
  priceChangeRefusal,
  readLimit,
} from '../../../src/guards/limits.js';
import { wholeRunRefusal } from '../../../src/guards/verdict.js';
import { UsageError } from '../../../src/usage-error.js';
import { runSpec } from '../../support/run-record.js';

describe('N|P% limits', () => {
  it.each([
    ['5', '5'],
    ['0', '0'],
    ['10%', '10%'],
    [' 2.5 % ', '2.5%'],
    ['100%', '100%'],
  ])('reads %j as %j', (text, stored) => {
    expect(parseCountOrPercent(text, '--max-invalid')).toBe(stored);
  });

  it.each(['-3', '120%', 'abc', '', '1.5', '5%%'])('refuses %j in one line naming the option', (text) => {
    expect(() => parseCountOrPercent(text, '--max-updates')).toThrow(/^--max-updates takes/);
  });

  it('a percentage of the price may be over 100 (a doubled price is +100%)', () => {
    expect(parsePercent('150%', '--max-price-change')).toBe('150%');
    expect(parsePercent('50', '--max-price-change')).toBe('50%');
    expect(() => parsePercent('abc', '--max-price-change')).toThrow(/not "abc"/);
  });

  it('a number below 1 without a % is refused: 0.5 may mean 0.5% or 50%', () => {
    expect(parsePercent('50%', '--max-price-change')).toBe('50%');
    expect(parsePercent('0.5%', '--max-price-change')).toBe('0.5%');
    expect(parsePercent('0', '--max-price-change')).toBe('0%');
    expect(parsePercent('1', '--max-price-change')).toBe('1%');
    for (const text of ['0.5', ' .5', '0.05'])
      expect(() => parsePercent(text, '--max-price-change')).toThrow(
        new UsageError(
          `--max-price-change ${text.trim()}: a number below 1 needs its % sign, as it may be a fraction: write ${text.trim()}% or ${Number(text) * 100}%`,
        ),
      );
  });

  it('trips only on more than the limit', () => {
    expect(exceeds(2, 10, readLimit('2'))).toBe(false);
    expect(exceeds(3, 10, readLimit('2'))).toBe(true);
    expect(exceeds(1, 10, readLimit('10%'))).toBe(false);
    expect(exceeds(2, 10, readLimit('10%'))).toBe(true);
    expect(exceeds(0, 0, readLimit('0%'))).toBe(false);
  });
});

describe('the price check', () => {
  it('holds a price divided by 100, saying old → new', () => {
    expect(priceChangeRefusal(19.99, 0.1999, '50%')).toBe(
      'price 19.99 → 0.1999 (-99%) exceeds --max-price-change 50%',
    );
  });

  it('holds a rise over the limit and lets one within it go, either way', () => {
    expect(priceChangeRefusal('10.00', 16, '50%')).toBe(
      'price 10 → 16 (+60%) exceeds --max-price-change 50%',
    );
    expect(priceChangeRefusal(10, 15, '50%')).toBeNull();
    expect(priceChangeRefusal(10, 5, '50%')).toBeNull();
    expect(priceChangeRefusal('12.50', 12.5, '0%')).toBeNull();
  });

  it('holds any move from 0, and leaves a value that is no price to the validation', () => {
    expect(priceChangeRefusal(0, 1, '1000%')).toBe('price 0 → 1 (from 0) exceeds --max-price-change 1000%');
    expect(priceChangeRefusal(undefined, 1, '50%')).toBeNull();
  });
});

describe('the price check of a product an --incremental run did not read', () => {
  it('weighs the move from the price this tool last sent, and says where that price comes from', () => {
    expect(lastSentPriceRefusal(20, 0.2, '50%')).toBe(
      'price 20 → 0.2 (-99%) exceeds --max-price-change 50% (20: the price this tool last sent; the run read no product)',
    );
    expect(lastSentPriceRefusal('20.00', 21, '50%')).toBeNull();
  });

  it('holds a price it cannot weigh: this tool never sent the product one', () => {
    expect(lastSentPriceRefusal(undefined, 21, '50%')).toBe(
      'price 21: not weighed against --max-price-change 50%, its price before is unknown (the run read no product, and this tool never sent it a price)',
    );
    // A digest is no price (a long string the record keeps as a fingerprint).
    expect(lastSentPriceRefusal('#~abcdefghij', 21, '50%')).toMatch(/^price 21: not weighed/);
    expect(lastSentPriceRefusal(undefined, 'free', '50%')).toBeNull();
  });
});

describe('whole-run guards', () => {
  it('names every guard that trips, with its figures', () => {
    const spec = runSpec({ maxInvalid: '2', maxUpdates: '10%' });
    expect(wholeRunRefusal(spec, { rows: 10, invalid: 3, updates: 9, listed: 10, missing: null })).toBe(
      '3 of 10 rows are invalid (30%), more than --max-invalid 2; 9 of 10 products would be updated (90%), more than --max-updates 10%: nothing was sent',
    );
    expect(wholeRunRefusal(spec, { rows: 10, invalid: 2, updates: 1, listed: 10, missing: null })).toBeNull();
  });

  it('weighs the deactivations --missing would send against --max-missing, 20% of the managed when not given', () => {
    const figures = { rows: 6, invalid: 0, updates: 2, listed: 10 };
    expect(wholeRunRefusal(runSpec({}), { ...figures, missing: { due: 5, managed: 10 } })).toBe(
      '5 of 10 managed products would be deactivated (50%), more than --max-missing 20%: nothing was sent',
    );
    expect(wholeRunRefusal(runSpec({}), { ...figures, missing: { due: 2, managed: 10 } })).toBeNull();
    expect(
      wholeRunRefusal(runSpec({ maxMissing: '5' }), { ...figures, missing: { due: 5, managed: 10 } }),
    ).toBeNull();
    // No --missing, or it cannot apply: nothing to weigh, whatever the products gone.
    expect(wholeRunRefusal(runSpec({}), { ...figures, missing: null })).toBeNull();
    expect(
      wholeRunRefusal(runSpec({ maxUpdates: '1', maxMissing: '0' }), {
        ...figures,
        missing: { due: 1, managed: 10 },
      }),
    ).toBe(
      '2 of 10 products would be updated (20%), more than --max-updates 1; 1 of 10 managed products would be deactivated (10%), more than --max-missing 0: nothing was sent',
    );
  });

  it('holds a --missing run whose source has rows with no key, whatever its deactivations number', () => {
    const figures = { rows: 100, invalid: 1, updates: 0, listed: 100 };
    const keyless = 'row 53 has no sku: the product it stands for may be among the 1 missing';
    expect(wholeRunRefusal(runSpec({}), { ...figures, missing: { due: 1, managed: 100, keyless } })).toBe(
      `${keyless}: nothing was sent`,
    );
    // Nothing due: nothing for the row to stand for.
    expect(
      wholeRunRefusal(runSpec({}), { ...figures, missing: { due: 0, managed: 100, keyless } }),
    ).toBeNull();
    expect(
      wholeRunRefusal(runSpec({}), { ...figures, missing: { due: 1, managed: 100, keyless: null } }),
    ).toBeNull();
  });

  it('puts a count of one in the singular', () => {
    const spec = runSpec({ maxInvalid: '0', maxUpdates: '0' });
    expect(wholeRunRefusal(spec, { rows: 1, invalid: 1, updates: 1, listed: 1, missing: null })).toBe(
      '1 of 1 row is invalid (100%), more than --max-invalid 0; 1 of 1 product would be updated (100%), more than --max-updates 0: nothing was sent',
    );
  });
});
