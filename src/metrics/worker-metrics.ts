import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { RowOutcome } from '../interfaces.js';
import type { RequestEvent } from '../seller-api/index.js';

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

/**
 * The metrics of `worker --metrics-port` (README, Webhooks and metrics). Counters count what this process
 * did since it started (Prometheus sums the workers); the gauges are read from Redis at each scrape.
 * Labels name sellers by their ref, a fingerprint: never the key.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly rows: Counter<'outcome' | 'status'>;
  private readonly requests: Counter<'method' | 'status'>;

  constructor(readSellers: () => Promise<SellerSnapshot[]>) {
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
    // One read of Redis serves both gauges of a scrape.
    let reading: Promise<SellerSnapshot[]> | null = null;
    const sellers = () => {
      reading ??= readSellers().finally(() => {
        reading = null;
      });
      return reading;
    };
    new Gauge({
      name: 'catalog_sync_seller_paused',
      help: '1 while the seller is paused, by reason (daily-limit: limit or budget; key-rejected: until resume; api-unreachable: until a probe is answered)',
      labelNames: ['seller', 'reason'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const seller of await sellers()) {
          this.set({ seller: seller.ref, reason: 'daily-limit' }, seller.pausedOnLimit ? 1 : 0);
          this.set({ seller: seller.ref, reason: 'key-rejected' }, seller.keyRejected ? 1 : 0);
          this.set({ seller: seller.ref, reason: 'api-unreachable' }, seller.unreachable ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'catalog_sync_queue_rows',
      help: "Rows in the seller's queued chunks, by state (waiting, active, delayed)",
      labelNames: ['seller', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const seller of await sellers()) {
          for (const [state, rows] of Object.entries(seller.queueRows))
            this.set({ seller: seller.ref, state }, rows);
        }
      },
    });
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
