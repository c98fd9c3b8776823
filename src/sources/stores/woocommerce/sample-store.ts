import type { WooCategory, WooProduct } from './double.js';

const IMAGES = 'https://shop.example/wp-content/uploads';

/** The categories of the sample store: `Home > Decor` and `Textiles`. */
export function sampleCategories(): WooCategory[] {
  return [
    { id: 1, name: 'Home', parent: 0 },
    { id: 2, name: 'Decor', parent: 1 },
    { id: 3, name: 'Textiles', parent: 0 },
  ];
}

/**
 * The sample store of `sandbox --as woocommerce`: a simple product on sale, a variable product (one
 * variation disabled, one without SKU), a grouped and an external product, a private, a hidden and
 * a draft product, a sale that ended, and a product without SKU.
 */
export function sampleWooStore(): WooProduct[] {
  const decor = [{ id: 2, name: 'Decor' }];
  const textiles = [{ id: 3, name: 'Textiles' }];
  return [
    {
      id: 10,
      name: 'Ceramic vase',
      type: 'simple',
      status: 'publish',
      catalog_visibility: 'visible',
      sku: 'VASE-1',
      description: '<p>Glazed stoneware.</p>',
      regular_price: '30.00',
      sale_price: '25.00',
      manage_stock: true,
      stock_quantity: 4,
      stock_status: 'instock',
      weight: '1.2',
      categories: decor,
      tags: [{ id: 7, name: 'handmade' }],
      images: [
        { id: 70, src: `${IMAGES}/vase.jpg` },
        { id: 71, src: `${IMAGES}/vase-side.jpg` },
      ],
    },
    {
      id: 11,
      name: 'Wool scarf',
      type: 'variable',
      status: 'publish',
      catalog_visibility: 'visible',
      sku: 'SCARF',
      description: '<p>Merino wool.</p>',
      categories: textiles,
      images: [{ id: 72, src: `${IMAGES}/scarf.jpg` }],
      attributes: [{ name: 'Color', options: ['Grey', 'Navy'], variation: true }],
      variations: [
        {
          id: 111,
          name: 'Wool scarf - Grey',
          sku: 'SCARF-GREY',
          status: 'publish',
          regular_price: '35.00',
          manage_stock: true,
          stock_quantity: 5,
          stock_status: 'instock',
          attributes: [{ name: 'Color', option: 'Grey' }],
        },
        {
          id: 112,
          name: 'Wool scarf - Navy',
          sku: '',
          status: 'private',
          regular_price: '35.00',
          manage_stock: false,
          stock_status: 'instock',
          attributes: [{ name: 'Color', option: 'Navy' }],
        },
      ],
    },
    {
      id: 12,
      name: 'Gift set',
      type: 'grouped',
      status: 'publish',
      sku: 'GIFT-SET',
      grouped_products: [10, 17],
    },
    {
      id: 13,
      name: 'Poster (partner shop)',
      type: 'external',
      status: 'publish',
      sku: 'POSTER-EXT',
      regular_price: '15.00',
      external_url: 'https://partner.example/poster',
    },
    { id: 14, name: 'Staff mug', type: 'simple', status: 'private', sku: 'MUG-STAFF', regular_price: '8.00' },
    {
      id: 15,
      name: 'Replacement lid',
      type: 'simple',
      status: 'publish',
      catalog_visibility: 'hidden',
      sku: 'LID-1',
      regular_price: '3.00',
    },
    {
      id: 16,
      name: 'Next season jacket',
      type: 'simple',
      status: 'draft',
      sku: 'JACKET-NEXT',
      regular_price: '120.00',
    },
    {
      id: 17,
      name: 'Linen towel',
      type: 'simple',
      status: 'publish',
      catalog_visibility: 'visible',
      sku: 'TOWEL-1',
      regular_price: '12.00',
      // A sale that ended: the store keeps the price, but sells at the regular one.
      sale_price: '9.00',
      date_on_sale_to_gmt: '2020-01-31T23:59:59',
      manage_stock: false,
      stock_status: 'outofstock',
      categories: textiles,
    },
    {
      id: 18,
      name: 'Beeswax candle',
      type: 'simple',
      status: 'publish',
      sku: '',
      regular_price: '6.50',
      stock_status: 'instock',
    },
  ];
}
