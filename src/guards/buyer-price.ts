import { compareDecimals, toDecimal } from '../catalog/decimal.js';
import type { Decimal, ProductFields } from '../interfaces.js';
import { moveBeyond } from './limits.js';

/**
 * The row guard of `--max-price-change` on the price the buyer pays: the sale price where one is
 * below the price, else the price. A broken feed moves it through the sale price as surely as
 * through the price (a sale price of 2 on a product at 200), so a sale that starts, a sale price
 * that changes and a sale that ends (sync/sale-end.ts) are each weighed as the move of that price.
 * The marketplace takes no sale dates: a preset sends a sale price only while its sale runs
 * (catalog/presets/sale-dates.ts), so the prices weighed are what the buyer pays now.
 */

/** A product's price and sale price as shown (before a write): values as the index keeps them. */
export interface ShownPrices {
  price: unknown;
  salePrice: unknown;
}

interface BuyerPrice {
  pays: Decimal;
  onSale: boolean;
}

/**
 * What the buyer pays for a product priced so, or null when its price is not known. A sale price
 * of 0 below the price is weighed as the price it says: the guard holds what it cannot tell apart.
 */
export function buyerPrice({ price, salePrice }: ShownPrices): BuyerPrice | null {
  const list = toDecimal(price);
  if (list === null) return null;
  const sale = toDecimal(salePrice);
  if (sale !== null && compareDecimals(sale, list) < 0) return { pays: sale, onSale: true };
  return { pays: list, onSale: false };
}

/**
 * The reason a write of `fields` to a product showing `before` is held, for the move of the price
 * its buyer pays, or null when it moves within the limit. A move with no sale price below the price
 * on either side is the price's own move, weighed as such (priceChangeRefusal): null here.
 */
export function buyerPriceRefusal(
  before: ShownPrices,
  fields: ProductFields,
  maxPercent: string,
): string | null {
  const then = buyerPrice(before);
  const now = buyerPrice(afterWrite(before, fields));
  if (!sendsPrices(fields) || !then || !now || (!then.onSale && !now.onSale)) return null;
  const move = moveBeyond(then.pays, now.pays, maxPercent);
  return move && `${saleMove(then, now)}: the price the buyer pays ${move}`;
}

/**
 * The same for a product an `--incremental` run did not read: its prices are taken to be the ones
 * this tool last sent it (`lastSent`), in the same words (a sale ended has always been weighed so;
 * docs/running.md says where the prices come from). A sale price sent to a product it never sent a
 * price is held: how far the buyer's price moves cannot be told.
 */
export function lastSentBuyerPriceRefusal(
  lastSent: ShownPrices,
  fields: ProductFields,
  maxPercent: string,
): string | null {
  if (buyerPrice(lastSent) === null) {
    const sale = toDecimal(fields.sale_price);
    if (sale === null) return null;
    return `sale price ${sale}: not weighed against --max-price-change ${maxPercent}, the price the buyer paid before is unknown (the run read no product, and this tool never sent it a price)`;
  }
  return buyerPriceRefusal(lastSent, fields, maxPercent);
}

/** The write's prices: what it sends, else what the product shows. */
function afterWrite(before: ShownPrices, fields: ProductFields): ShownPrices {
  return {
    price: fields.price ?? before.price,
    salePrice: fields.sale_price ?? before.salePrice,
  };
}

function sendsPrices(fields: ProductFields): boolean {
  return fields.price !== undefined || fields.sale_price !== undefined;
}

/** What moved the buyer's price: one wording for each way a sale does (a sale ended keeps its own). */
function saleMove(then: BuyerPrice, now: BuyerPrice): string {
  if (!then.onSale) return 'sale started';
  return now.onSale ? 'sale price changed' : 'sale ended';
}
