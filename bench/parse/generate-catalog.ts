import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * Writes a generic catalog CSV of `rows` products, streamed (memory stays flat): quoted names with
 * commas, a share of non-ASCII text, prices with two decimals, a blank brand now and then.
 */
export async function writeGenericCatalog(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('sku,name,price,quantity,brand,description\n');
  let batch = '';
  for (let i = 1; i <= rows; i++) {
    const sku = `SKU-${String(i).padStart(7, '0')}`;
    const name = i % 10 === 0 ? `"Münsterländer ${i}, 0,5 Liter"` : `Product ${i}`;
    const price = `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`;
    const brand = i % 7 === 0 ? '' : 'Acme';
    batch += `${sku},${name},${price},${i % 50},${brand},"A product, described in a few words"\n`;
    if (i % 1000 === 0) {
      await write(batch);
      batch = '';
    }
  }
  await write(batch);
  out.end();
  await once(out, 'finish');
}
