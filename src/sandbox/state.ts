import { randomBytes } from 'node:crypto';
import type { ActiveFaults } from './faults.js';
import {
  DAY_MS,
  faultsProblem,
  type HeldRequest,
  isLoopbackHost,
  LIST_SHAPES,
  type ListShape,
  RESET_HEADERS,
  type ResetHeader,
  type SandboxFaults,
  type SandboxKey,
  type SandboxOptions,
} from './options.js';
import type { DailyUsage } from './quota.js';
import { RequestLog } from './request-log.js';
import { StatsRecorder } from './stats.js';
import { SandboxStore } from './store.js';

/** The options with every default filled in. */
export interface ResolvedOptions {
  host: string;
  port: number;
  keys: SandboxKey[];
  dayLengthMs: number;
  resetHeader: ResetHeader;
  limitHeaders: boolean;
  acceptFields: readonly string[] | null;
  hideFields: readonly string[];
  normalize: boolean;
  updateFields: readonly string[] | null;
  ignoreOnUpdate: readonly string[];
  listShape: ListShape;
  pageSize: number;
  createStatus: 200 | 201;
  createBody: boolean;
  ordersPerSeller: number;
  now: () => number;
  random: () => number;
  hold: ((request: HeldRequest) => Promise<unknown> | undefined) | null;
}

/** Everything a running sandbox holds: keys, store, quota usage, faults, stats and the request log. */
export class SandboxState {
  readonly keys = new Map<string, string>();
  readonly usage = new Map<string, DailyUsage>();
  readonly stats = new StatsRecorder();
  readonly requests = new RequestLog();
  readonly store: SandboxStore;
  readonly faults: ActiveFaults;
  dailyLimit: number | null;
  /** Set once the server listens: `http://HOST:PORT/api/v1`; answers use the Host the client sent. */
  baseUrl = '';

  constructor(
    readonly options: ResolvedOptions,
    initialFaults: SandboxFaults,
  ) {
    this.store = new SandboxStore(options.now, options.ordersPerSeller);
    this.faults = {
      latencyMs: initialFaults.latencyMs ?? 0,
      failRate: initialFaults.failRate ?? 0,
      dropResponseRate: initialFaults.dropResponseRate ?? 0,
    };
    this.dailyLimit = initialFaults.dailyLimit ?? null;
    for (const { key, seller } of options.keys) this.addKey(key, seller);
  }

  addKey(key: string, seller: string): void {
    if (key === '' || seller === '') throw new TypeError('a sandbox key and its seller must be non-empty');
    this.keys.set(key, seller);
    this.store.ensureSeller(seller);
  }

  revokeKey(key: string): void {
    this.keys.delete(key);
    this.usage.delete(key);
  }

  setFaults(faults: Partial<SandboxFaults>): void {
    const problem = faultsProblem(faults);
    if (problem) throw new RangeError(problem);
    if (faults.latencyMs !== undefined) this.faults.latencyMs = faults.latencyMs;
    if (faults.failRate !== undefined) this.faults.failRate = faults.failRate;
    if (faults.dropResponseRate !== undefined) this.faults.dropResponseRate = faults.dropResponseRate;
    if (faults.dailyLimit !== undefined) this.dailyLimit = faults.dailyLimit;
  }
}

/** Fills in defaults and refuses what the sandbox cannot honour, with a one-line reason. */
export function resolveOptions(options: SandboxOptions): {
  resolved: ResolvedOptions;
  faults: SandboxFaults;
} {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host))
    throw new RangeError(`host ${host} is not loopback; the sandbox serves loopback only`);
  const port = options.port ?? 0;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65_535)) throw new RangeError('port must be 0..65535');
  const dayLengthMs = options.dayLengthMs ?? DAY_MS;
  if (!(Number.isInteger(dayLengthMs) && dayLengthMs >= 1)) throw new RangeError('dayLengthMs must be >= 1');
  const pageSize = options.pageSize ?? 100;
  if (!(Number.isInteger(pageSize) && pageSize >= 1))
    throw new RangeError('pageSize must be a positive integer');
  const resetHeader = options.resetHeader ?? 'retry-after';
  if (!RESET_HEADERS.includes(resetHeader)) throw new RangeError(`resetHeader ${resetHeader} is not known`);
  const listShape = options.listShape ?? 'page-meta';
  if (!LIST_SHAPES.includes(listShape)) throw new RangeError(`listShape ${listShape} is not known`);
  const createStatus = options.createStatus ?? 201;
  if (createStatus !== 200 && createStatus !== 201) throw new RangeError('createStatus must be 200 or 201');
  const ordersPerSeller = options.ordersPerSeller ?? 3;
  if (!(Number.isInteger(ordersPerSeller) && ordersPerSeller >= 0)) {
    throw new RangeError('ordersPerSeller must be a non-negative integer');
  }
  const faults: SandboxFaults = {
    latencyMs: options.latencyMs ?? 0,
    failRate: options.failRate ?? 0,
    dropResponseRate: options.dropResponseRate ?? 0,
    dailyLimit: options.dailyLimit ?? null,
  };
  const problem = faultsProblem(faults);
  if (problem) throw new RangeError(problem);
  const keys = options.keys && options.keys.length > 0 ? options.keys : [generatedKey()];
  return {
    resolved: {
      host,
      port,
      keys,
      dayLengthMs,
      resetHeader,
      limitHeaders: options.limitHeaders ?? true,
      acceptFields: options.acceptFields ?? null,
      hideFields: options.hideFields ?? [],
      normalize: options.normalize ?? false,
      updateFields: options.updateFields ?? null,
      ignoreOnUpdate: options.ignoreOnUpdate ?? [],
      listShape,
      pageSize,
      createStatus,
      createBody: options.createBody ?? true,
      ordersPerSeller,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      hold: options.hold ?? null,
    },
    faults,
  };
}

function generatedKey(): SandboxKey {
  return { key: `sk_sandbox_${randomBytes(16).toString('hex')}`, seller: 'sandbox-seller' };
}
