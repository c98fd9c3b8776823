import { describe, expect, it } from 'vitest';
import { buyerPrice, buyerPriceRefusal, lastSentBuyerPriceRefusal } from '../../../src/guards/buyer-price.js';

describe('buyerPrice: what the buyer pays', () => {
  it('is the sale price where one is below the price, else the price', () => {
    expect(buyerPrice({ price: 50, salePrice: '40.00' })).toEqual({ pays: '40', onSale: true });
    expect(buyerPrice({ price: 50, salePrice: 50 })).toEqual({ pays: '50', onSale: false });
    expect(buyerPrice({ price: 50, salePrice: 60 })).toEqual({ pays: '50', onSale: false });
    expect(buyerPrice({ price: '50', salePrice: undefined })).toEqual({ pays: '50', onSale: false });
  });

  it('a sale price of 0 below the price is what it says; no price known, nothing is', () => {
    expect(buyerPrice({ price: 50, salePrice: 0 })).toEqual({ pays: '0', onSale: true });
    expect(buyerPrice({ price: undefined, salePrice: 40 })).toBeNull();
  });
});

describe('buyerPriceRefusal: --max-price-change on the price the buyer pays', () => {
  it('holds a sale that starts past the limit', () => {
    expect(buyerPriceRefusal({ price: 200, salePrice: undefined }, { sale_price: 2 }, '10%')).toBe(
      'sale started: the price the buyer pays 200 → 2 (-99%) exceeds --max-price-change 10%',
    );
    expect(buyerPriceRefusal({ price: 200, salePrice: undefined }, { sale_price: 190 }, '10%')).toBeNull();
  });

  it('holds a sale price that changes past the limit, either way', () => {
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { sale_price: 4 }, '10%')).toBe(
      'sale price changed: the price the buyer pays 40 → 4 (-90%) exceeds --max-price-change 10%',
    );
    expect(buyerPriceRefusal({ price: 50, salePrice: 20 }, { sale_price: 45 }, '10%')).toBe(
      'sale price changed: the price the buyer pays 20 → 45 (+125%) exceeds --max-price-change 10%',
    );
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { sale_price: 38 }, '10%')).toBeNull();
  });

  it('holds a sale that ends past the limit, in the words it always had', () => {
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { sale_price: 50 }, '10%')).toBe(
      'sale ended: the price the buyer pays 40 → 50 (+25%) exceeds --max-price-change 10%',
    );
    // A new price at once: the buyer goes from the sale price to it.
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { price: 60, sale_price: 60 }, '10%')).toBe(
      'sale ended: the price the buyer pays 40 → 60 (+50%) exceeds --max-price-change 10%',
    );
  });

  it('weighs a price that changes under a sale by what the buyer pays', () => {
    // The sale price still below the new price: the buyer pays the same.
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { price: 100 }, '10%')).toBeNull();
    // The price drops below the sale price: the buyer pays the new price.
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { price: 30 }, '10%')).toBe(
      'sale ended: the price the buyer pays 40 → 30 (-25%) exceeds --max-price-change 10%',
    );
  });

  it('leaves a move with no sale on either side to the price’s own guard, and a write of no price alone', () => {
    expect(buyerPriceRefusal({ price: 50, salePrice: undefined }, { price: 5 }, '10%')).toBeNull();
    expect(buyerPriceRefusal({ price: 50, salePrice: 40 }, { quantity: 3 }, '10%')).toBeNull();
    expect(buyerPriceRefusal({ price: undefined, salePrice: 40 }, { sale_price: 4 }, '10%')).toBeNull();
  });
});

describe('lastSentBuyerPriceRefusal: a product the run did not read', () => {
  it('weighs from the prices this tool last sent', () => {
    expect(lastSentBuyerPriceRefusal({ price: 200, salePrice: undefined }, { sale_price: 2 }, '10%')).toBe(
      'sale started: the price the buyer pays 200 → 2 (-99%) exceeds --max-price-change 10%',
    );
  });

  it('holds a sale price sent to a product it never sent a price, and nothing else', () => {
    expect(
      lastSentBuyerPriceRefusal({ price: undefined, salePrice: undefined }, { sale_price: 2 }, '10%'),
    ).toBe(
      'sale price 2: not weighed against --max-price-change 10%, the price the buyer paid before is unknown (the run read no product, and this tool never sent it a price)',
    );
    expect(lastSentBuyerPriceRefusal({ price: undefined, salePrice: 40 }, { quantity: 3 }, '10%')).toBeNull();
  });
});
