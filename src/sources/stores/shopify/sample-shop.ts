import type { ShopProduct } from './double.js';

const gid = (kind: string, n: number) => `gid://shopify/${kind}/${n}`;
const CDN = 'https://cdn.shopify.example/files';

/**
 * The sample shop of `sandbox --as shopify`: a product with two variants (one on sale), a product
 * without SKU whose stock is not tracked, a draft and an archived product.
 */
export function sampleShop(): ShopProduct[] {
  return [
    {
      id: gid('Product', 101),
      handle: 'linen-shirt',
      title: 'Linen shirt',
      descriptionHtml: '<p>Washed linen, relaxed fit.</p>',
      vendor: 'Atelier Nord',
      productType: 'Shirts',
      tags: ['linen', 'summer'],
      status: 'ACTIVE',
      options: [{ name: 'Size', position: 1 }],
      media: [
        { id: gid('MediaImage', 1), image: { url: `${CDN}/linen-shirt-front.jpg` } },
        { id: gid('MediaImage', 2), image: { url: `${CDN}/linen-shirt-back.jpg` } },
      ],
      variants: [
        {
          id: gid('ProductVariant', 1001),
          sku: 'LS-S',
          price: '40.00',
          compareAtPrice: '50.00',
          barcode: '4006381333931',
          inventoryQuantity: 7,
          selectedOptions: [{ name: 'Size', value: 'S' }],
          inventoryItem: { tracked: true, measurement: { weight: { unit: 'GRAMS', value: 200 } } },
        },
        {
          id: gid('ProductVariant', 1002),
          sku: 'LS-M',
          price: '40.00',
          compareAtPrice: null,
          inventoryQuantity: 0,
          selectedOptions: [{ name: 'Size', value: 'M' }],
          image: { url: `${CDN}/linen-shirt-back.jpg` },
          inventoryItem: { tracked: true, measurement: { weight: { unit: 'KILOGRAMS', value: 0.25 } } },
        },
      ],
    },
    {
      id: gid('Product', 102),
      handle: 'clay-mug',
      title: 'Clay mug',
      descriptionHtml: '<p>Thrown by hand.</p>',
      vendor: 'Atelier Nord',
      productType: 'Kitchen',
      tags: [],
      status: 'ACTIVE',
      options: [{ name: 'Title', position: 1 }],
      media: [{ id: gid('MediaImage', 3), image: { url: `${CDN}/clay-mug.jpg` } }],
      variants: [
        {
          id: gid('ProductVariant', 1003),
          sku: '',
          price: '12.50',
          inventoryQuantity: 3,
          selectedOptions: [{ name: 'Title', value: 'Default Title' }],
          inventoryItem: { tracked: false },
        },
      ],
    },
    {
      id: gid('Product', 103),
      handle: 'winter-coat',
      title: 'Winter coat',
      vendor: 'Atelier Nord',
      productType: 'Coats',
      tags: ['wool'],
      status: 'DRAFT',
      options: [{ name: 'Title', position: 1 }],
      variants: [
        {
          id: gid('ProductVariant', 1004),
          sku: 'WC-1',
          price: '199.00',
          inventoryQuantity: 2,
          selectedOptions: [{ name: 'Title', value: 'Default Title' }],
          inventoryItem: { tracked: true },
        },
      ],
    },
    {
      id: gid('Product', 104),
      handle: 'old-lamp',
      title: 'Old lamp',
      vendor: 'Atelier Nord',
      productType: 'Lighting',
      status: 'ARCHIVED',
      options: [{ name: 'Title', position: 1 }],
      variants: [
        {
          id: gid('ProductVariant', 1005),
          sku: 'OL-1',
          price: '30.00',
          inventoryQuantity: 1,
          selectedOptions: [{ name: 'Title', value: 'Default Title' }],
          inventoryItem: { tracked: true },
        },
      ],
    },
  ];
}
