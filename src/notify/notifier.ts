import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { Logger } from '../logger.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';
import { type AllowedHost, webhookRefusal } from '../trust-rules.js';
import { notifyBody, type PauseDetail, type RunEvent } from './payload.js';
import { DEFAULT_DELIVERY, postWebhook, type WebhookDelivery } from './post-webhook.js';
import { webhookOrigin } from './webhook-url.js';

export interface NotifierDeps {
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  /**
   * The hosts this process may tell (config.ts readWebhookHosts): its environment's, and its own
   * command line's `--notify`. A run's `notify` is read from Redis, so it is held to them.
   */
  webhookHosts: readonly AllowedHost[];
  delivery?: Partial<WebhookDelivery>;
  now?: () => number;
}

/**
 * Tells a run's `--notify` webhook what became of the run: one POST per event, whichever of several
 * workers meets it first (a Redis SET NX marker per run and event). Never throws and never waits
 * longer than its tries allow: a hook that fails or hangs costs the run one warning line, not its
 * exit code. Logs name the hook by its origin only. A hook on a host this process does not allow is
 * one warning line and no POST.
 */
export class RunNotifier {
  private readonly delivery: WebhookDelivery;
  private readonly now: () => number;

  constructor(private readonly deps: NotifierDeps) {
    this.delivery = {
      ...DEFAULT_DELIVERY,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...deps.delivery,
    };
    this.now = deps.now ?? Date.now;
  }

  /**
   * `detail.resumesAt`: when a daily-limit pause lifts. A pause's marker lasts until then, so the
   * pause of a later day is told again; the other events are told once per run.
   */
  async notifyRun(event: RunEvent, run: RunRecord, detail: PauseDetail = {}): Promise<void> {
    if (!run.notify) return;
    await this.tell(event, run, run.notify, run.notifyFromJob === true, detail, true);
  }

  /**
   * Tells `hook`, the webhook of a `run` that joined `run` (the queued run of its source: it was
   * not queued itself), of `run`'s event, with `run`'s body. No claim: only the process that joined
   * knows of this hook, and it tells each event once; `run`'s own webhook is told as ever.
   */
  async notifyJoiner(
    event: RunEvent,
    run: RunRecord,
    hook: { url: string; fromJob: boolean },
    detail: PauseDetail = {},
  ): Promise<void> {
    await this.tell(event, run, hook.url, hook.fromJob, detail, false);
  }

  private async tell(
    event: RunEvent,
    run: RunRecord,
    url: string,
    fromJob: boolean,
    detail: PauseDetail,
    claimed: boolean,
  ): Promise<void> {
    const log = this.deps.logger.child({ run: run.id, event, webhook: webhookOrigin(url) });
    try {
      if (claimed && !(await this.claim(event, run.id, detail.resumesAt))) return;
      const refused = webhookRefusal(url, this.deps.webhookHosts);
      if (refused) {
        log.warn({ reason: refused }, `webhook not told: ${refused}`);
        return;
      }
      // A job file's webhook: judged by the job file's rule on the address this process connects to.
      const delivery = fromJob ? { ...this.delivery, namedByJob: true } : this.delivery;
      const result = await postWebhook(url, notifyBody(event, run, detail), delivery);
      if (result.ok) log.debug({ attempts: result.attempts }, 'webhook told');
      else
        log.warn({ attempts: result.attempts, reason: result.reason }, `webhook not told: ${result.reason}`);
    } catch (error) {
      log.warn({ reason: String((error as Error)?.message ?? error) }, 'webhook not told');
    }
  }

  /** Same as notifyRun, by run id (the record is read now, so the counts are the latest). */
  async notifyRunById(
    event: RunEvent,
    runId: string,
    read: (id: string) => Promise<RunRecord | null>,
    detail: PauseDetail = {},
  ): Promise<void> {
    try {
      const run = await read(runId);
      if (run) await this.notifyRun(event, run, detail);
    } catch (error) {
      this.deps.logger.warn({ run: runId, event, reason: String(error) }, 'webhook not told');
    }
  }

  private async claim(event: RunEvent, runId: string, resumesAt?: number | null): Promise<boolean> {
    const lifetimeMs =
      event === 'paused' && resumesAt != null
        ? Math.max(1000, resumesAt - this.now())
        : RUN_TTL_SECONDS * 1000;
    const set = await this.deps.redis.set(this.deps.keys.notified(runId, event), '1', 'PX', lifetimeMs, 'NX');
    return set === 'OK';
  }
}
