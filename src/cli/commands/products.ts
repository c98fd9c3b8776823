import type { Command } from 'commander';
import { PRODUCTS_CSV } from '../../exports/product-csv.js';
import { type ExportFlags, type ExportKind, exportOptions, runExport } from '../export-command.js';
import type { CliIo } from '../program.js';

const PRODUCTS: ExportKind = {
  noun: 'product',
  list: (client) => client.listProducts(),
  csv: PRODUCTS_CSV,
};

export function registerProducts(program: Command, io: CliIo): void {
  // Made by the program, so that it takes the program's error output and exit handling (main.ts).
  const products = program.command('products').description("the seller's products");
  exportOptions(
    products
      .command('export')
      .description(
        'every product of the seller, every page: CSV (columns: id, then every other field seen, in ' +
          'code-point order; lists as "a, b") that imports back with `run` (generic preset) with no write, ' +
          'or NDJSON (each product as the API gave it)',
      ),
  ).action(async (flags: ExportFlags) => {
    io.exitCode = await runExport(io, flags, PRODUCTS);
  });
}
