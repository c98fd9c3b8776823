import type { Command } from 'commander';
import type { CsvShape } from '../../exports/export-file.js';
import { type ExportFlags, type ExportKind, exportOptions, runExport } from '../export-command.js';
import type { CliIo } from '../program.js';

/** Nested objects and arrays become JSON text in one cell: an order's lines stay one row. */
function orderCells(fields: Record<string, unknown>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    flat[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return flat;
}

/** Columns in the order first met. */
const ORDERS_CSV: CsvShape = { cells: orderCells, columns: (seen) => [...seen] };

const ORDERS: ExportKind = {
  noun: 'order',
  list: (client) => client.listOrders(),
  csv: ORDERS_CSV,
};

export function registerOrders(program: Command, io: CliIo): void {
  // Made by the program, so that it takes the program's error output and exit handling (main.ts).
  const orders = program.command('orders').description("the seller's orders (read-only)");
  exportOptions(
    orders.command('export').description("the seller's orders, every page, as CSV or NDJSON (JSON lines)"),
  ).action(async (flags: ExportFlags) => {
    io.exitCode = await runExport(io, flags, ORDERS);
  });
}
