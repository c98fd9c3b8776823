import { describe, expect, it } from 'vitest';
import { productRow, WOO_EXPORT_COLUMNS } from '../../../src/sources/stores/woocommerce/export-rows.js';
import { mapRows } from './map-rows.js';

/**
 * WooCommerce's exporter (3.5.4+, filter_description_field) writes a newline in Description and
 * Short description as the two characters `\n`, and a `\n` the text holds as `\\n`; its importer
 * (parse_description_field) reads them back. The cells are built here as the exporter writes them.
 */
const NEWLINE_AS_EXPORTED = '\\n';
const BACKSLASH_N_AS_EXPORTED = '\\\\n';

const COLUMNS = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Short description', 'Description'];

async function mapped(cells: { name?: string; short?: string; description?: string }) {
  const [row] = await mapRows(
    COLUMNS,
    [['7', 'simple', 'LINES', cells.name ?? 'Lines', '5', cells.short ?? '', cells.description ?? '']],
    { preset: 'woocommerce' },
  );
  return row?.kind === 'upsert' ? row.fields : undefined;
}

describe("the woocommerce preset reads a description as WooCommerce's importer does", () => {
  it('a `\\n` in Description is a newline', async () => {
    const cell = `<p>Line one</p>${NEWLINE_AS_EXPORTED}<p>Line two</p>`;
    expect((await mapped({ description: cell }))?.description).toBe('<p>Line one</p>\n<p>Line two</p>');
  });

  it('a `\\\\n` in Description is the text `\\n`, not a newline', async () => {
    const cell = `Type ${BACKSLASH_N_AS_EXPORTED} for a new line.${NEWLINE_AS_EXPORTED}Done.`;
    expect((await mapped({ description: cell }))?.description).toBe('Type \\n for a new line.\nDone.');
  });

  it('Short description, sent where Description is blank, is read the same way', async () => {
    const cell = `Soft.${NEWLINE_AS_EXPORTED}Warm.`;
    expect((await mapped({ short: cell }))?.description).toBe('Soft.\nWarm.');
  });

  it('a real newline in the cell (an exporter before 3.5.4) stays; a last `\\n` is trimmed as a blank is', async () => {
    expect((await mapped({ description: 'One\nTwo' }))?.description).toBe('One\nTwo');
    expect((await mapped({ description: `One${NEWLINE_AS_EXPORTED}` }))?.description).toBe('One');
  });

  it('other columns keep a `\\n` as written: the importer reads only the descriptions so', async () => {
    expect((await mapped({ name: `Tee ${NEWLINE_AS_EXPORTED} red` }))?.name).toBe('Tee \\n red');
  });
});

describe('a description read through the REST API comes out of the preset as the store holds it', () => {
  it.each([
    ['<p>Line one</p>\n<p>Line two</p>'],
    ['Type \\n for a new line.\nDone.'],
    ['C:\\\\new\\nfolder'],
    ['no line at all'],
  ])('%j', async (description) => {
    const row = productRow(
      {
        id: 7,
        type: 'simple',
        status: 'publish',
        sku: 'LINES',
        name: 'Lines',
        regular_price: '5',
        description,
      },
      new Map(),
    );
    const [mappedRow] = await mapRows(
      [...WOO_EXPORT_COLUMNS],
      [WOO_EXPORT_COLUMNS.map((column) => row[column] ?? '')],
      { preset: 'woocommerce' },
    );
    expect(mappedRow).toMatchObject({ kind: 'upsert', fields: { description } });
  });
});
