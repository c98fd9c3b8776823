/** What the exporter writes for a newline, and for the text `\n`, in a description cell. */
const NEWLINE_CELL = '\\n';
const BACKSLASH_N_CELL = '\\\\n';

/**
 * A `Description` or `Short description` cell of WooCommerce's product CSV as the text it holds.
 * The exporter (WC_Product_CSV_Exporter::filter_description_field, WooCommerce 3.5.4+) writes each
 * newline as the two characters `\n`, after writing each `\n` the text had as `\\n`; the importer
 * (WC_Product_CSV_Importer::parse_description_field) reads those two columns back, split at `\\n`.
 * Each `\\n` is read here as the `\n` the exporter was given, so that a store read from its export
 * and from its API (export-rows.ts writes the API's text as the exporter would) gives one
 * description. Any other column keeps a `\n` as written: the importer does the same.
 */
export function wooDescriptionOfCell(cell: string): string {
  return cell
    .split(BACKSLASH_N_CELL)
    .map((part) => part.replaceAll(NEWLINE_CELL, '\n'))
    .join('\\n');
}
