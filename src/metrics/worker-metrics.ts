import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { METRICS_REDIS_READ_MS } from '../defaults.js';
import type { RowOutcome } from '../interfaces.js';
import type { RedisFaultKind } from '../redis/health.js';
import type { RequestEvent } from '../seller-api/index.js';
import { BoundedRead } from './bounded-read.js';

/** One seller as a scrape sees it: read from Redis at that moment, so every worker tells the same. */
export interface SellerSnapshot {
  ref: string;
  /** A daily-limit (or daily-budget) pause in force. */
  pausedOnLimit: boolean;
  /** A rejected key (401) waiting for `resume`. */
  keyRejected: boolean;
  /** The API out of reach (refused, DNS, timeouts): probed again until it answers. */
  unreachable?: boolean;
  /** Rows in the seller's queued chunks, by BullMQ state. */
  queueRows: Record<string, number>;
}

export interface WorkerMetricsOptions {
  /** The fault this process met in Redis that stops it taking jobs, if any (health.ts). */
  redisFault?: () => RedisFaultKind | null;
  /** How long a scrape waits for its reads of Redis (a test seam; METRICS_REDIS_READ_MS). */
  readMs?: number;
}

/** The faults `catalog_sync_redis_fault` reports, each 0 or 1 (health.ts, RedisFaultKind). */
const FAULT_KINDS: readonly Exclude<RedisFaultKind, 'lost'>[] = ['unanswered', 'full', 'read-only', 'denied'];

/**
 * The metrics of `worker --metrics-port` (README, Webhooks and metrics). Counters count what this process
 * did since it started (Prometheus sums the workers); the gauges are read from Redis at each scrape.
 * Labels name sellers by their ref, a fingerprint: never the key. A scrape whose reads of Redis fail
 * or do not answer in time still answers, with the counters, `catalog_sync_redis_up 0` and no seller
 * gauge: an unread queue is left out, never reported as empty.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly rows: Counter<'outcome' | 'status'>;
  private readonly requests: Counter<'method' | 'status'>;
  private readonly sellerPaused: Gauge<'seller' | 'reason'>;
  private readonly queueRows: Gauge<'seller' | 'state'>;
  private readonly redisUp: Gauge;
  private readonly redisFaultGauge: Gauge<'kind'>;
  private readonly sellers: BoundedRead<SellerSnapshot[]>;
  private readonly redisFault: () => RedisFaultKind | null;

  constructor(readSellers: () => Promise<SellerSnapshot[]>, options: WorkerMetricsOptions = {}) {
    this.sellers = new BoundedRead(readSellers, options.readMs ?? METRICS_REDIS_READ_MS);
    this.redisFault = options.redisFault ?? (() => null);
    collectDefaultMetrics({ register: this.registry });
    this.rows = new Counter({
      name: 'catalog_sync_rows_total',
      help: "Rows settled by this worker, by outcome (the report's action) and status",
      labelNames: ['outcome', 'status'],
      registers: [this.registry],
    });
    this.requests = new Counter({
      name: 'catalog_sync_requests_total',
      help: 'Seller API requests tried by this worker, by method and HTTP status (error: no answer, the connection not made too)',
      labelNames: ['method', 'status'],
      registers: [this.registry],
    });
    this.sellerPaused = new Gauge({
      name: 'catalog_sync_seller_paused',
      help: '1 while the seller is paused, by reason (daily-limit: limit or budget; key-rejected: until resume; api-unreachable: until a probe is answered)',
      labelNames: ['seller', 'reason'],
      registers: [this.registry],
    });
    this.queueRows = new Gauge({
      name: 'catalog_sync_queue_rows',
      help: "Rows in the seller's queued chunks, by state (waiting, active, delayed)",
      labelNames: ['seller', 'state'],
      registers: [this.registry],
    });
    this.redisUp = new Gauge({
      name: 'catalog_sync_redis_up',
      help: '1 when this scrape read Redis, 0 when it failed or did not answer in time (the seller gauges are left out then)',
      registers: [this.registry],
    });
    this.redisFaultGauge = new Gauge({
      name: 'catalog_sync_redis_fault',
      help: 'Redis as this worker met it: 1 while it takes no new job for that kind (unanswered: a cluster master out of reach; full; read-only; denied: a permission lacking)',
      labelNames: ['kind'],
      registers: [this.registry],
    });
  }

  /** Prometheus text: Redis read first (waited for a bounded time), then every metric. */
  async text(): Promise<string> {
    const outcome = await this.sellers.within();
    this.sellerPaused.reset();
    this.queueRows.reset();
    this.redisUp.set(outcome.read ? 1 : 0);
    if (outcome.read) {
      for (const seller of outcome.value) {
        this.sellerPaused.set({ seller: seller.ref, reason: 'daily-limit' }, seller.pausedOnLimit ? 1 : 0);
        this.sellerPaused.set({ seller: seller.ref, reason: 'key-rejected' }, seller.keyRejected ? 1 : 0);
        this.sellerPaused.set({ seller: seller.ref, reason: 'api-unreachable' }, seller.unreachable ? 1 : 0);
        for (const [state, rows] of Object.entries(seller.queueRows))
          this.queueRows.set({ seller: seller.ref, state }, rows);
      }
    }
    const fault = this.redisFault();
    for (const kind of FAULT_KINDS) this.redisFaultGauge.set({ kind }, fault === kind ? 1 : 0);
    return this.registry.metrics();
  }

  /** Rows this process settled just now (each row once: a retried chunk's settled rows are not here). */
  rowsSettled(outcomes: readonly Pick<RowOutcome, 'action' | 'status'>[]): void {
    for (const outcome of outcomes) this.rows.inc({ outcome: outcome.action, status: outcome.status });
  }

  /** One request sent (a retry is another request). */
  requestSent(event: Pick<RequestEvent, 'method' | 'status'>): void {
    this.requests.inc({
      method: event.method,
      status: event.status === null ? 'error' : String(event.status),
    });
  }
}
