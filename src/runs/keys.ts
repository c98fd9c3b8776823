/**
 * Every Redis key catalog-sync writes besides BullMQ's own, in one place.
 * All start with the deployment prefix (REDIS prefix option), so several deployments can share a Redis.
 * Nothing here holds an API key: sellers are named by their ref (a fingerprint).
 */

/**
 * The key forms of earlier versions a list read indexes, each in its hash (sync/former-key-forms.ts):
 * a form added there names its hash here, so that the run's end deletes it (run-data-keys.ts).
 */
export const FORMER_KEY_FORM_INDEXES = ['excel-text', 'invisible-edge'] as const;
export type FormerKeyFormIndex = (typeof FORMER_KEY_FORM_INDEXES)[number];

export class RedisKeys {
  /**
   * Cluster mode (REDIS_CLUSTER): every key carries a hash tag so that one seller's keys (its
   * queue's, its runs', its id map, pause, quota, claims) share one slot, and the MULTIs and scripts
   * that mix them keep working there: the seller's ref is the tag (`prefix:seller:{REF}:…`,
   * queue `sync-{REF}`, a run's keys `prefix:run:STAMP-RAND-{REF}:…`, the run id ending in the ref:
   * newRunId). The keys of no one seller (runs index, sellers registry, aliases, scheduled imports)
   * share the tag `{global}`. Without a cluster the names stay byte for byte what they were: an id
   * map renamed would be an id map lost (duplicates).
   */
  readonly cluster: boolean;
  readonly #global: string;

  constructor(
    readonly prefix: string,
    options: { cluster?: boolean } = {},
  ) {
    this.cluster = options.cluster ?? false;
    this.#global = this.cluster ? `${prefix}:{global}` : prefix;
  }

  /** The seller's keys start with it: `prefix:seller:REF`, `prefix:seller:{REF}` on a cluster. */
  #seller(sellerRef: string): string {
    return this.cluster ? `${this.prefix}:seller:{${sellerRef}}` : `${this.prefix}:seller:${sellerRef}`;
  }

  /** A run's keys start with it: on a cluster, the seller's ref that ends the run id is the tag. */
  #run(runId: string): string {
    return `${this.prefix}:run:${this.cluster ? tagRunId(runId) : runId}`;
  }

  /** The BullMQ queue of a seller's chunks (BullMQ's keys are `prefix:QUEUE:…`). */
  sellerQueue(sellerRef: string): string {
    return this.cluster ? `sync-{${sellerRef}}` : `sync-${sellerRef}`;
  }

  /**
   * The BullMQ queue of one run's chunks alone (RunSpec.ownQueue: a `run --dry-run`), beside its
   * seller's queue; in the seller's slot on a cluster (the run's keys and the seller's meet in scripts).
   */
  ownRunQueue(sellerRef: string, runId: string): string {
    return `${this.sellerQueue(sellerRef)}-run-${runId}`;
  }

  /** The BullMQ queue of scheduled imports (global: no one seller's). */
  scheduledImportsQueue(name: string): string {
    return this.cluster ? `${name}-{global}` : name;
  }

  /** What a run id ends with (`-REF`, newRunId) on a cluster, so its keys can be tagged from it alone. */
  runIdSuffix(sellerRef: string): string {
    return this.cluster ? sellerRef : '';
  }

  /** Sorted set of run ids by start time: `status` without an id shows the latest. */
  get runs(): string {
    return `${this.#global}:runs`;
  }
  /**
   * Hash: key fingerprint → seller ref, for a seller whose key was replaced (`resume` links the new
   * key) or that has a name (`--seller`: each key it is run with is linked): the seller keeps its
   * queue, its queued rows and its id map.
   */
  get sellerAliases(): string {
    return `${this.#global}:seller-aliases`;
  }
  /** Set of seller refs whose queues the `worker` command serves. */
  get sellers(): string {
    return `${this.#global}:sellers`;
  }
  /** String with a short TTL: a worker paused by a refused write tries one here to see if Redis takes writes again. */
  get writeProbe(): string {
    return `${this.#global}:write-probe`;
  }
  /** Hash: the run record (state, options, counters). */
  run(runId: string): string {
    return `${this.#run(runId)}`;
  }
  /** Hash: data row number → outcome (compact JSON). Written once per row (HSETNX): a row settles once. */
  outcomes(runId: string): string {
    return `${this.#run(runId)}:outcomes`;
  }
  /**
   * Hash: data row number → the row's raw source values (JSON array, aligned to the run's
   * `sourceHeader`), for the rows that settled failed or invalid: `report --failed-only`. A row that
   * took product fields from other rows: `{values, parents: [row numbers]}` (parentSources).
   */
  failedSources(runId: string): string {
    return `${this.#run(runId)}:failed-sources`;
  }
  /**
   * Hash: data row number → raw source values (JSON array) of a row that failed rows or planned
   * writes take product fields from (a variant's parent): kept once, however many name it.
   */
  parentSources(runId: string): string {
    return `${this.#run(runId)}:parent-sources`;
  }
  /** Hash: remote id → indexed product (JSON): the run's snapshot of the seller's products. */
  products(runId: string): string {
    return `${this.#run(runId)}:products`;
  }
  /** Hash: match key → remote id, for the snapshot's products whose key is known. */
  keyToId(runId: string): string {
    return `${this.#run(runId)}:key-to-id`;
  }
  /**
   * Hash per former key form: a listed key an earlier version wrote in that form, in its clean form →
   * the key as listed (`ZW-1` → `\u200bZW-1`: sync/former-key-forms.ts). Written only by a read that
   * lists one.
   */
  formerFormKeys(runId: string, form: FormerKeyFormIndex): string {
    return `${this.#run(runId)}:${form}-keys`;
  }
  /** Hash: remote id → match key (the reverse of keyToId). */
  idToKey(runId: string): string {
    return `${this.#run(runId)}:id-to-key`;
  }
  /**
   * Sorted set of the `missing` outcomes, filled when the run is finalised; every score is 0 and each
   * member starts with a sort key, so members come back in ascending product id (see missing-order.ts).
   */
  missing(runId: string): string {
    return `${this.#run(runId)}:missing-sorted`;
  }
  /** The list that held `missing` outcomes in scan order before they were sorted; read for older runs. */
  missingUnsorted(runId: string): string {
    return `${this.#run(runId)}:missing`;
  }
  /** Set of the match keys the source holds: a remote product whose key is not here is `missing`. */
  sourceKeys(runId: string): string {
    return `${this.#run(runId)}:source-keys`;
  }
  /**
   * Set of the match keys of rows left out because the source does not sell them, in a run with
   * `--missing` (catalog/unsold.ts): read in the source but not held by it, so they are not in
   * sourceKeys and their products are missing. What asks whether a source read a key at all asks
   * both (id-row-facts.ts, a held row's `approve`); a held deactivation's `approve` asks sourceKeys.
   */
  unsoldKeys(runId: string): string {
    return `${this.#run(runId)}:unsold-keys`;
  }
  /**
   * Set of the match keys whose row this run settled created, updated or unchanged (`ok`): its
   * product showed this run's source values after it (runs/written-keys.ts). A later run that wrote
   * a product supersedes an earlier held run's write of it; one that only read it does not
   * (later-source-runs.ts).
   */
  writtenKeys(runId: string): string {
    return `${this.#run(runId)}:written-keys`;
  }
  /** Set of the match keys this run created: a row whose outcome a killed worker lost still reads `create`. */
  createdKeys(runId: string): string {
    return `${this.#run(runId)}:created-keys`;
  }
  /**
   * Hash: remote id → what the run's PUT of that product replaced, per field (sync/replaced-values.ts):
   * the value before, the value sent. Written with the product's index refresh; read by `revert`.
   */
  replaced(runId: string): string {
    return `${this.#run(runId)}:replaced`;
  }
  /**
   * Hash: a product's name (sync/unrecorded-names.ts nameKey) → the ids, comma-separated, of the
   * listed products of that name without a SKU that the id map does not know and the seller has not
   * approved past (approvedLookalikes): a create of a row whose key is derived under one of these
   * names may make such a product a second time (guards/lookalike-creates.ts).
   */
  unrecordedNames(runId: string): string {
    return `${this.#run(runId)}:unrecorded-names`;
  }
  /**
   * Hash: `[field, value]` (JSON) → the id of a listed product that has that value, for a run
   * matched by another field than sku: its SKU, and the match value under the match column's own
   * name (sync/listed-keys.ts). A create of a row with one of them may make that product a second
   * time (guards/listed-key-creates.ts).
   */
  listedKeys(runId: string): string {
    return `${this.#run(runId)}:listed-keys`;
  }
  /**
   * Hash: data row number → the create it would make and the product it looks like (JSON), for the
   * run's rows with a derived key named as one of unrecordedNames, or with a value of listedKeys:
   * the run is held for them.
   */
  lookalikes(runId: string): string {
    return `${this.#run(runId)}:lookalikes`;
  }
  /**
   * Hash: data row number → the row's planned write (upsert, action, a row guard's reason), for a
   * run with a guard (`--max-…`): filled while the run plans, read when it applies, kept for `approve`.
   */
  plan(runId: string): string {
    return `${this.#run(runId)}:plan`;
  }
  /**
   * Hash: data row number → raw source values (JSON array) of a row that planned writes take
   * product fields from: kept once, dropped with the plan (a failed row's go to parentSources).
   */
  planParents(runId: string): string {
    return `${this.#run(runId)}:plan-parents`;
  }
  /**
   * Hash: remote id → match key, the managed products this run is to deactivate (`--missing`): filled
   * when the run ends, each removed as its `deactivate` line settles; the run is done when it is empty.
   */
  deactivations(runId: string): string {
    return `${this.#run(runId)}:deactivations`;
  }
  /**
   * Hash: remote id → `job id|expires at`, the `deactivate` job sending that product's PUT now
   * (deactivation-claims.ts): two jobs holding one product send it once.
   */
  deactivationClaims(runId: string): string {
    return `${this.#run(runId)}:deactivation-claims`;
  }
  /**
   * Set of `round:row`: the approved rows whose queued `approve` job Redis lost, given back to the
   * held ones (queue/lost-approvals.ts): each is taken off the round's count once.
   */
  approvalsGivenBack(runId: string): string {
    return `${this.#run(runId)}:approvals-given-back`;
  }
  /** Set of remote ids that a source row addressed, created or updated. */
  touched(runId: string): string {
    return `${this.#run(runId)}:touched`;
  }
  /**
   * String with a short TTL, renewed while a producer reads the run's source into the queue: a run
   * not read to the end whose key is gone was stopped (a Redis fault, a killed process) and can never
   * end by itself; the next import of its source ends it and starts over.
   */
  producing(runId: string): string {
    return `${this.#run(runId)}:producing`;
  }
  /**
   * String, set NX by the first process that tells the run's `--notify` webhook of `event`: one POST
   * per event however many workers meet it (notify/notifier.ts).
   */
  notified(runId: string, event: string): string {
    return `${this.#run(runId)}:notified:${event}`;
  }
  /**
   * String: the run's progress (`settled/total`) a worker last looked at for rows no chunk holds,
   * with the time to that worker's next look as its TTL: another worker of the fleet, meeting the
   * run idle at the same progress, leaves the look to it (queue/fleet-lost-rows.ts).
   */
  lostRowsLook(runId: string): string {
    return `${this.#run(runId)}:lost-rows-look`;
  }
  /** String lock held while one worker reads the seller's products into the index. */
  snapshotLock(runId: string): string {
    return `${this.#run(runId)}:snapshot-lock`;
  }
  /** Active run of a given source for a seller: re-running `import` while it is queued does not queue it twice. */
  activeRun(sellerRef: string, sourceId: string): string {
    return `${this.#seller(sellerRef)}:active:${sourceId}`;
  }
  /**
   * Sorted set: the runs of a source not known to be over, by creation time (ms): by its address (a
   * file's path, a feed's URL) whatever its content, a store's by its sourceId. A new run of the
   * source ends every one of them whose process stopped unread, or supersedes it (queue/earlier-source-runs.ts).
   */
  runsOfSource(sellerRef: string, sourceKey: string): string {
    return `${this.#seller(sellerRef)}:source-runs:${sourceKey}`;
  }
  /**
   * String, written by earlier versions: the latest run of a source by its address. Read once (and
   * deleted) by the next run of that address, so that a run such a version left unread still ends.
   */
  lastRunOfSource(sellerRef: string, addressId: string): string {
    return `${this.#seller(sellerRef)}:last-run:${addressId}`;
  }
  /**
   * Hash, one of the seller's id map's buckets (id-map-buckets.ts): match key → the entry of a product
   * this tool created or updated (id-map-entry.ts), for the keys that hash to `bucket`. `space`: the
   * match field's (match-space.ts), '' for the seller's first field, whose keys keep their old names.
   */
  idMapBucket(sellerRef: string, bucket: number, space = ''): string {
    return `${this.#seller(sellerRef)}:ids${space}:${bucket}`;
  }
  /** Hash, a bucket of the reverse of the id map: remote id → match key, for the ids that hash to `bucket`. */
  idMapReverseBucket(sellerRef: string, bucket: number, space = ''): string {
    return `${this.#seller(sellerRef)}:ids-reverse${space}:${bucket}`;
  }
  /**
   * String: the match field whose keys the seller's id map holds under the old names (space '';
   * match-space.ts). Another field's are kept apart: a name equal to another product's SKU is not it.
   */
  idMapHome(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:ids-home`;
  }
  /** Set: the match fields other than idMapHome's that have a space of their own (match-space.ts). */
  idMapFields(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:ids-fields`;
  }
  /**
   * Hash: match key → JSON { id, sent, echo }, the id map's form before buckets (issue 12); read only
   * to move its entries into the buckets (id-map-migration.ts), then gone.
   */
  oldIdMap(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:ids`;
  }
  /** Hash: remote id → match key, the reverse of oldIdMap; moved into the buckets with it. */
  oldIdMapReverse(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:ids-reverse`;
  }
  /** String held by the process that moves the seller's old id map into buckets. */
  idMapMigration(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:ids-migration`;
  }
  /**
   * Hash: match key → `run|token|expiresAt`, the claim a create holds from before its POST until its
   * product is recorded (create-claims.ts): one product per key, whatever runs overlap.
   */
  pendingCreates(sellerRef: string, space = ''): string {
    return `${this.#seller(sellerRef)}:pending-creates${space}`;
  }
  /**
   * String: when (ms) an `--incremental` run last read every product of the seller and recorded each
   * in the id map, and by which match field (incremental.ts). Gone with the id map (a flushed Redis),
   * so a missing record is never trusted.
   */
  fullRead(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:full-read-at`;
  }
  /**
   * Hash: product id → { id, former, at, set } for the products `--missing` deactivated: the values
   * its fields showed before, given back when the product returns to the source, under whichever
   * match field (missing/deactivated-store.ts).
   */
  deactivatedProducts(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:deactivated-ids`;
  }
  /**
   * Hash of an earlier version: match key → the same record, per match field's space. Moved into
   * deactivatedProducts once (missing/deactivated-migration.ts); nothing writes it any more.
   */
  deactivated(sellerRef: string, space = ''): string {
    return `${this.#seller(sellerRef)}:deactivated${space}`;
  }
  /** String with a TTL: the instant (ms) until which the seller's daily limit holds us. */
  pausedUntil(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:paused-until`;
  }
  /**
   * String with pausedUntil's TTL: what paused the seller, `limit` (the API's daily limit) or
   * `budget <run id>` (that run's --daily-budget): a budget's pause goes when its run is cancelled.
   */
  pauseCause(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:pause-cause`;
  }
  /**
   * String (JSON, seller-reach.ts): set while the seller's API cannot be reached at all (refused,
   * DNS, timeouts): when it was first seen, why, and when it is probed next; cleared by a probe that
   * gets an answer.
   */
  unreachable(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:unreachable`;
  }
  /**
   * String (JSON, runs/learned-limit.ts): the seller's daily limit learned from a 429: the requests
   * the API accepted in the 429's limit window; no expiry, a later window's 429 replaces it.
   */
  learnedLimit(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:learned-limit`;
  }
  /**
   * Hash with a TTL: limit window start (ms) → the seller's requests the API accepted in that
   * window, as every process reports them (runs/learned-limit.ts); the learned limit is its count.
   */
  acceptedRequests(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:accepted`;
  }
  /**
   * String: the latest instant (ms) a 429 said the seller's daily limit resets; the API counts afresh
   * from it, so the seller's day begins there, and every 24 h after it (sellers/quota-day.ts).
   */
  limitReset(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:limit-reset`;
  }
  /**
   * String: the announced reset (ms) that limitReset held before a later one replaced it, once it had
   * passed: where the seller's day began while the pause until the later one lasts (sellers/quota-day.ts).
   */
  limitResetBefore(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:limit-reset-before`;
  }
  /** String: set when the seller's key was rejected (401); cleared by `resume`. */
  authRejected(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:auth-rejected`;
  }
  /**
   * Hash: fingerprint (sellerRef of the base URL and the key, never the key) → ms, of each key the
   * API rejected (401) for the seller: no process sends with it again until `resume` or `run` finds
   * it accepted (a ping). Dropped whole when `cancel` lifts the seller's mark.
   */
  rejectedKeys(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:rejected-keys`;
  }
  /** Counter of requests sent for a seller in its day that starts at `dayStart` (ms; sellers/quota-day.ts sellerDayStart). */
  requestsUsed(sellerRef: string, dayStart: number): string {
    return `${this.#seller(sellerRef)}:used:${dayStart}`;
  }
  /**
   * Counter of the request numbers of the quota day that starts at `dayStart` (ms) that processes
   * hold in blocks now (request-quota.ts): counted in requestsUsed, not all sent yet.
   */
  requestsReserved(sellerRef: string, dayStart: number): string {
    return `${this.#seller(sellerRef)}:reserved:${dayStart}`;
  }
  /**
   * Counter of the seller's requests of the limit window that starts at `windowStart` (ms) that were
   * answered (or failed), as the processes report them: while it is below the window's count
   * (requestsUsed), a request is in flight somewhere, and no request past the limit may go.
   */
  requestsAnswered(sellerRef: string, windowStart: number): string {
    return `${this.#seller(sellerRef)}:answered:${windowStart}`;
  }
  /**
   * Set: ids of the seller's products without a SKU, unknown to the tool, that an `approve` of a
   * run held for look-alikes created past (guards/lookalike-creates.ts): no run is held for them
   * again. Kept like the id map (no expiry); a list read drops those no longer listed so.
   */
  approvedLookalikes(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:approved-lookalikes`;
  }
  /** Set: the product fields this tool has sent for the seller (managed-fields.ts). */
  fieldsSent(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:fields-sent`;
  }
  /**
   * Sorted set: the seller's run ids by creation time (ms), trimmed to RUN_TTL_SECONDS: what a run
   * that ends asks about the seller's earlier runs, without reading every seller's runs.
   */
  sellerRuns(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:runs`;
  }
  /**
   * Sorted set: run id → when its producer last renewed its `producing` mark, for the seller's runs
   * whose source is being read (producing-mark.ts): a later run's chunks wait for them (run-order.ts).
   * A member the producer stopped renewing (killed) is stale after the mark's lifetime.
   */
  sellerReading(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:reading`;
  }
  /**
   * Sorted set: job id → when it was put back, the chunks of the seller's queue that wait for an
   * earlier run of the seller (run-order.ts): the end of that run takes them out again.
   */
  behindEarlierRuns(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:behind-earlier-runs`;
  }
  /**
   * String with a short TTL, renewed by every process that can serve the seller (one holding its
   * key): `status` and `import` say when a run waits for a worker that holds the seller's key.
   */
  servedBy(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:served`;
  }
  /**
   * String with a short TTL, renewed by a `worker` that served the seller until a key changed in its
   * keys file, the new one linked to no seller yet (it no longer serves it): `status` says to run
   * `resume`, not that no worker holds the key. Only a time is stored.
   */
  keyChangedUnlinked(sellerRef: string): string {
    return `${this.#seller(sellerRef)}:key-changed`;
  }
  /** Hash: what `worker` processes need to serve a seller's queue (base URL, queue name; `name` for a named seller). */
  seller(sellerRef: string): string {
    return `${this.#seller(sellerRef)}`;
  }
}

/**
 * `STAMP-RAND-REF` → `STAMP-RAND-{REF}`: the ref after the second dash (a ref may hold dashes, not
 * braces). A run id without one (not made on a cluster) is tagged whole: its own keys still share a
 * slot, apart from its seller's.
 */
export function tagRunId(runId: string): string {
  const parts = runId.split('-');
  return parts.length > 2 ? `${parts.slice(0, 2).join('-')}-{${parts.slice(2).join('-')}}` : `{${runId}}`;
}
