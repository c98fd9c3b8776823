import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { stringify } from 'csv-stringify';
import { readApiConfig } from '../../config.js';
import { SellerApiClient, SellerApiError, UnauthorizedError } from '../../seller-api/index.js';
import { isRetryableRead } from '../../sync/error-policy.js';
import { jsonTerminalSafe, terminalSafe, terminalSafeLine } from '../../terminal-safe.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIo } from '../program.js';

interface OrdersFlags {
  out?: string;
  format?: 'csv' | 'jsonl';
  keyEnv: string;
  baseUrl?: string;
  allowInsecure: boolean;
}

export function registerOrders(program: Command, io: CliIo): void {
  const orders = new Command('orders').description("the seller's orders (read-only)");
  orders
    .command('export')
    .description("the seller's orders, every page, as CSV or JSON lines")
    .option('--out <file>', 'write to a file instead of standard output')
    .addOption(
      new Option('--format <format>', 'csv or jsonl (default: from --out, else csv)').choices([
        'csv',
        'jsonl',
      ]),
    )
    .option('--key-env <name>', "the environment variable that holds the seller's key", 'SELLER_API_KEY')
    .option('--base-url <url>', 'the Seller API base URL, ending in /api/v1 (overrides SELLER_API_BASE_URL)')
    .option('--allow-insecure', 'allow an http:// base URL that is not loopback', false)
    .action(async (flags: OrdersFlags) => {
      io.exitCode = await exportOrders(io, flags);
    });
  program.addCommand(orders);
}

async function exportOrders(io: CliIo, flags: OrdersFlags): Promise<number> {
  const api = readApiConfig(io.env, flags);
  const client = new SellerApiClient({
    ...api,
    retry: { policy: { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000 }, retryable: isRetryableRead },
  });
  const format = flags.format ?? (flags.out && /\.jsonl?$|\.ndjson$/i.test(flags.out) ? 'jsonl' : 'csv');
  const out = flags.out ? createWriteStream(flags.out) : io.stdout;
  // CSV needs every column before the first line: the orders go to a JSON-lines file first, so
  // memory stays flat however many orders there are.
  const scratch = await mkdtemp(join(tmpdir(), 'catalog-sync-orders-'));
  const linesPath = join(scratch, 'orders.jsonl');
  const columns = new Set<string>();
  let count = 0;
  try {
    const lines = format === 'jsonl' ? out : createWriteStream(linesPath);
    for await (const page of client.listOrders()) {
      for (const order of page) {
        const flat = flatten(order.fields);
        for (const key of Object.keys(flat)) columns.add(key);
        const json = JSON.stringify(format === 'jsonl' ? order.fields : flat);
        // On standard output, the API's text is shown, never obeyed by a terminal (JSON escapes C0 itself).
        if (!lines.write(`${flags.out ? json : jsonTerminalSafe(json)}\n`)) await once(lines, 'drain');
        count++;
      }
    }
    if (format === 'csv') {
      lines.end();
      await once(lines, 'finish');
      await writeCsv(linesPath, [...columns], out, !flags.out);
    }
    if (flags.out) {
      out.end();
      await once(out, 'finish');
    }
    io.stderr.write(`catalog-sync: ${count} orders exported${flags.out ? ` to ${flags.out}` : ''}\n`);
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof SellerApiError)) throw error;
    io.stderr.write(`catalog-sync: ${terminalSafeLine(error.message)}\n`);
    return error instanceof UnauthorizedError ? ExitCode.unauthorized : ExitCode.usage;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `terminal`: to standard output, where control characters in the API's text are shown as `\xHH`. */
async function writeCsv(
  linesPath: string,
  columns: string[],
  out: NodeJS.WritableStream,
  terminal: boolean,
): Promise<void> {
  const shown = (text: string) => (terminal ? terminalSafe(text) : text);
  const csv = stringify({ header: true, columns: columns.map((key) => ({ key, header: shown(key) })) });
  csv.pipe(out, { end: false });
  for await (const line of createInterface({ input: createReadStream(linesPath) })) {
    const record = JSON.parse(line) as Record<string, string>;
    if (terminal) for (const key of Object.keys(record)) record[key] = shown(record[key] as string);
    if (!csv.write(record)) await once(csv, 'drain');
  }
  csv.end();
  await once(csv, 'end');
}

/** Nested objects and arrays become JSON text in one cell: an order's lines stay one row. */
function flatten(fields: Record<string, unknown>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    flat[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return flat;
}
