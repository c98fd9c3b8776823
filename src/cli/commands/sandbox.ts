import type { Command } from 'commander';
import { DEFAULT_SANDBOX_PORT } from '../../defaults.js';
import { unitlessLine } from '../../duration.js';
import {
  isLoopbackHost,
  LIST_SHAPES,
  type ListShape,
  parseDuration,
  RESET_HEADERS,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../sandbox/index.js';
import type { CliIo } from '../program.js';
import { untilSignal } from '../signals.js';
import { UsageError } from '../usage-error.js';
import {
  checkStoreDoubleFlags,
  STORE_DOUBLE_PORTS,
  STORE_DOUBLES,
  startStoreDouble,
} from './sandbox-store.js';

/** The flags as commander hands them over: raw strings, parsed by `sandboxOptionsFromFlags`. */
export interface SandboxFlags {
  port?: string;
  host?: string;
  key?: string[];
  dailyLimit?: string;
  dayLength?: string;
  resetHeader?: string;
  latency?: string;
  failRate?: string;
  dropRate?: string;
  acceptFields?: string;
  hideFields?: string;
  normalize?: boolean;
  updateFields?: string;
  ignoreOnUpdate?: string;
  listShape?: string;
  pageSize?: string;
  createStatus?: string;
  createBody?: boolean;
  /** `--as shopify|woocommerce`: serve a store's API double instead of the Seller API. */
  as?: string;
}

export function registerSandbox(
  program: Command,
  io: CliIo,
  untilStopped: () => Promise<unknown> = () => untilSignal(io.signals),
): void {
  program
    .command('sandbox')
    .description('serve the sandbox Seller API on loopback, in memory, until SIGINT or SIGTERM')
    .option('--port <n>', `port to listen on; 0 takes any free port (default ${DEFAULT_SANDBOX_PORT})`)
    .option('--host <host>', 'loopback address to listen on: 127.0.0.1, ::1 or localhost (default 127.0.0.1)')
    .option(
      '--key <KEY=SELLER>',
      'an API key and the seller it is linked to; repeatable (default: one generated pair)',
      collect,
    )
    .option(
      '--daily-limit <n>',
      'requests per key per day; beyond it 429 until the day turns (default: none)',
    )
    .option(
      '--day-length <duration>',
      'length of a "day", e.g. 24h, 30s, 500ms; days start at the epoch (default 24h)',
    )
    .option(
      '--reset-header <form>',
      `how a 429 says when it resets: ${RESET_HEADERS.join(', ')} (default retry-after)`,
    )
    .option('--latency <ms>', 'milliseconds added to every answer (default 0)')
    .option('--fail-rate <f>', 'share of requests answered 500 without applying anything, 0..1 (default 0)')
    .option(
      '--drop-rate <f>',
      'share of writes applied but left unanswered (connection closed), 0..1 (default 0)',
    )
    .option('--accept-fields <a,b>', 'the only product fields accepted; others answer 400 (default: any)')
    .option('--hide-fields <a,b>', 'product fields stored but never echoed back, e.g. sku')
    .option(
      '--normalize',
      'store and show its own form: names trimmed, spaces collapsed, prices in cents, tags as objects',
    )
    .option('--update-fields <a,b>', 'the only product fields a PUT takes; others answer 400 (default: any)')
    .option('--ignore-on-update <a,b>', 'product fields a PUT answers 200 to but does not apply')
    .option(
      '--list-shape <shape>',
      `list wrapper and pagination: ${LIST_SHAPES.join(', ')} (default page-meta)`,
    )
    .option('--page-size <n>', 'items per list page (default 100)')
    .option('--create-status <code>', 'status of a successful create: 200 or 201 (default 201)')
    .option('--no-create-body', 'answer a create with an empty body and a Location header')
    .option(
      '--as <platform>',
      `serve a store's API double with sample products instead: ${STORE_DOUBLES.join(' or ')} (default port ${STORE_DOUBLE_PORTS.shopify} or ${STORE_DOUBLE_PORTS.woocommerce})`,
    )
    .action(async (flags: SandboxFlags) => {
      if (flags.as !== undefined) {
        await serveStore(flags, io, untilStopped);
        return;
      }
      const options = sandboxOptionsFromFlags(flags);
      const sandbox = await listen(options);
      io.stdout.write(pasteableLines(sandbox, options));
      await untilStopped();
      await sandbox.close();
    });
}

/** Turns the raw flags into sandbox options; a bad value is a UsageError naming the option. */
export function sandboxOptionsFromFlags(flags: SandboxFlags): SandboxOptions {
  const options: SandboxOptions = {
    port: flags.port === undefined ? DEFAULT_SANDBOX_PORT : integer('--port', flags.port, 0, 65_535),
  };
  if (flags.host !== undefined) {
    if (!isLoopbackHost(flags.host)) {
      throw new UsageError(
        `--host: ${flags.host} is not loopback; the sandbox serves 127.0.0.1, ::1 or localhost only`,
      );
    }
    options.host = flags.host;
  }
  if (flags.key && flags.key.length > 0) options.keys = flags.key.map(keyPair);
  if (flags.dailyLimit !== undefined) options.dailyLimit = integer('--daily-limit', flags.dailyLimit, 0);
  if (flags.dayLength !== undefined) {
    const unitless = unitlessLine('--day-length', flags.dayLength, 'h');
    if (unitless) throw new UsageError(unitless);
    const ms = parseDuration(flags.dayLength);
    if (ms === null)
      throw new UsageError(`--day-length: ${flags.dayLength} is not a duration such as 24h, 30s or 500ms`);
    options.dayLengthMs = ms;
  }
  if (flags.resetHeader !== undefined)
    options.resetHeader = oneOf('--reset-header', flags.resetHeader, RESET_HEADERS);
  if (flags.latency !== undefined) options.latencyMs = integer('--latency', flags.latency, 0);
  if (flags.failRate !== undefined) options.failRate = rate('--fail-rate', flags.failRate);
  if (flags.dropRate !== undefined) options.dropResponseRate = rate('--drop-rate', flags.dropRate);
  if (flags.acceptFields !== undefined)
    options.acceptFields = fieldList('--accept-fields', flags.acceptFields);
  if (flags.hideFields !== undefined) options.hideFields = fieldList('--hide-fields', flags.hideFields);
  if (flags.normalize === true) options.normalize = true;
  if (flags.updateFields !== undefined)
    options.updateFields = fieldList('--update-fields', flags.updateFields);
  if (flags.ignoreOnUpdate !== undefined)
    options.ignoreOnUpdate = fieldList('--ignore-on-update', flags.ignoreOnUpdate);
  if (flags.listShape !== undefined)
    options.listShape = oneOf<ListShape>('--list-shape', flags.listShape, LIST_SHAPES);
  if (flags.pageSize !== undefined) options.pageSize = integer('--page-size', flags.pageSize, 1);
  if (flags.createStatus !== undefined) {
    options.createStatus =
      oneOf('--create-status', flags.createStatus, ['200', '201'] as const) === '200' ? 200 : 201;
  }
  if (flags.createBody === false) options.createBody = false;
  return options;
}

/** Lines ready to paste into a shell or an .env file; the first key is the active one. */
export function pasteableLines(
  sandbox: Pick<Sandbox, 'baseUrl' | 'defaultKey'>,
  options: SandboxOptions,
): string {
  const keys = options.keys && options.keys.length > 0 ? options.keys : [sandbox.defaultKey];
  const lines = [`# sandbox Seller API; stop it with Ctrl-C`, `SELLER_API_BASE_URL=${sandbox.baseUrl}`];
  keys.forEach(({ key, seller }, index) => {
    lines.push(`${index === 0 ? '' : '# '}SELLER_API_KEY=${key}  # seller ${seller}`);
  });
  return `${lines.join('\n')}\n`;
}

/** `sandbox --as shopify|woocommerce`: the store double, on the port and host given, until stopped. */
async function serveStore(
  flags: SandboxFlags,
  io: CliIo,
  untilStopped: () => Promise<unknown>,
): Promise<void> {
  const name = checkStoreDoubleFlags(flags.as ?? '', flags as Record<string, unknown>);
  const { port, host } = sandboxOptionsFromFlags({
    ...(flags.port === undefined ? {} : { port: flags.port }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
  });
  const listenOn = {
    port: flags.port === undefined ? STORE_DOUBLE_PORTS[name] : (port ?? 0),
    ...(host ? { host } : {}),
  };
  let started: Awaited<ReturnType<typeof startStoreDouble>>;
  try {
    started = await startStoreDouble(name, listenOn);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`--port: ${listenOn.port} is already in use; try --port 0`);
    throw error;
  }
  io.stdout.write(started.lines);
  await untilStopped();
  await started.double.close();
}

async function listen(options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`--port: ${options.port} is already in use; try --port 0`);
    if (code === 'EADDRNOTAVAIL')
      throw new UsageError(`--host: ${options.host} is not available on this machine`);
    throw error;
  }
}

/** No default value: commander would print it as a second default, `(default: [])`. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function keyPair(text: string): { key: string; seller: string } {
  const at = text.indexOf('=');
  const key = text.slice(0, at);
  const seller = text.slice(at + 1);
  // The key itself is a throwaway sandbox key, but a malformed one is not echoed anyway.
  if (at < 1 || seller === '') throw new UsageError('--key: expected KEY=SELLER, both non-empty');
  return { key, seller };
}

function integer(option: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw new UsageError(`${option}: ${text} is not ${range}`);
  }
  return value;
}

function rate(option: string, text: string): number {
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new UsageError(`${option}: ${text} is not a number from 0 to 1`);
  return value;
}

function oneOf<T extends string>(option: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) {
    throw new UsageError(`${option}: ${text} is not one of ${allowed.join(', ')}`);
  }
  return text as T;
}

function fieldList(option: string, text: string): string[] {
  const fields = text.split(',').map((field) => field.trim());
  if (fields.some((field) => field === ''))
    throw new UsageError(`${option}: expected field names separated by commas`);
  return fields;
}
