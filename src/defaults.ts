/**
 * Every time, size and count catalog-sync tunes, in one table (as graphile-worker keeps its
 * config.ts): the unit is in the name (_MS, _SECONDS, _BYTES; a count otherwise) and the comment says
 * why the figure is what it is. Modules read them from here. Where an environment variable or an
 * option overrides one, the module that reads it says so (config.ts, the commands' options).
 * This module imports nothing, so that every layer may read it (docs/architecture.md).
 */

// ── The environment's defaults (config.ts reads the variables) ─────────────────────────────────

/** CATALOG_SYNC_PREFIX: the first part of every Redis key (a line naming where runs are says another). */
export const DEFAULT_PREFIX = 'catalog-sync';

/**
 * CATALOG_SYNC_LOCK_MS: a chunk job's lock, renewed every half of it. A killed worker's jobs return
 * to the queue within lock + stall check (CATALOG_SYNC_STALL_CHECK_MS, half the lock by default),
 * and about a second more for the check to put them back: 8 + 4 + 1 s (issue 31: ≤ 15 s). With
 * 10 + 5 s, a check that fell just before the lock ran out left the jobs for one more, and 1 run
 * in 2 took 16.3 s (the others 11.3 s).
 */
export const DEFAULT_LOCK_MS = 8_000;

/** CATALOG_SYNC_RETRY_BASE_MS: the first backoff of a failed request; it doubles with each try. */
export const DEFAULT_RETRY_BASE_MS = 500;

/** CATALOG_SYNC_RETRIES: tries after the first for a 5xx, a time-out or a reset (5 attempts in all). */
export const DEFAULT_RETRIES = 4;

/** No single wait between two tries of a request exceeds this, however many tries came before. */
export const RETRY_MAX_DELAY_MS = 30_000;

/** CATALOG_SYNC_REDIS_DEADLINE_MS: how long `run` waits for a Redis that stopped answering (a restart takes less). */
export const DEFAULT_REDIS_DEADLINE_MS = 20_000;

/**
 * The wait before the first probe of an API out of reach (CATALOG_SYNC_PROBE_MS), doubling after
 * each failed probe up to `maxMs`: a host back in seconds is found soon, one down for hours costs
 * one request every 5 minutes.
 */
export const DEFAULT_PROBE_BACKOFF = { firstMs: 5_000, maxMs: 300_000 };

/** Connecting to Redis: a local or LAN server answers in milliseconds; past this the attempt fails. */
export const REDIS_CONNECT_TIMEOUT_MS = 3000;

// ── Reading the source ────────────────────────────────────────────────────────────────────────

/** `--source-timeout`'s default: less than 1 KiB in 30 s is a stall. */
export const DEFAULT_SOURCE_TIMEOUT_MS = 30_000;

/** Redirects a source URL may take, each hop checked again: what browsers allow is more than a feed needs. */
export const MAX_REDIRECTS = 5;

/**
 * Resolving the name and connecting (TLS included) has this long, for each hop of a source URL and
 * for each connection to the Seller API: a host that answers no SYN in 10 s is not there.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** `--max-record-bytes`' default: today's CSV cap, made general. */
export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** A JSON or XML value nested deeper than this makes its row invalid. The item itself is level 1. */
export const MAX_NESTING = 64;

/** The smallest and largest `--max-record-bytes` accepted: below 1 KiB no real record fits, above 1 GiB memory is not bounded. */
export const MIN_RECORD_BYTES = 1024;
export const MAX_RECORD_BYTES = 1024 * 1024 * 1024;

/** The source's first bytes read to find its compression, encoding and format: a few records of any format. */
export const SNIFF_BYTES = 64 * 1024;

/** A file is read this much at a time (Node's default for file streams). */
export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * A CSV's first FIRST_PARSED_CHARS characters go to the parser in pieces of FIRST_PIECE_CHARS
 * (~100 records): csv-parse parses a whole chunk at once (~850 records of 64 KiB) and one more
 * ahead, and `run` parses on the thread that sends the run's first requests, which need ~200
 * records (issue 31: parsing a 2,000-row file was 28 of the 95 ms before the first request).
 */
export const FIRST_PARSED_CHARS = 128 * 1024;
export const FIRST_PIECE_CHARS = 8 * 1024;

/** Less than this in any window of `--source-timeout` is a stall. */
export const STALL_MIN_BYTES = 1024;

/** Arrivals closer together than window/STALL_BUCKETS are kept as one, so memory stays flat. */
export const STALL_BUCKETS = 32;

/** Records the delimiter is guessed from: enough to see a consistent count, few enough to be instant. */
export const DELIMITER_SAMPLE_RECORDS = 20;

/** An XML element's name is kept to this length while the depth filter reads it: item names are short. */
export const XML_NAME_LIMIT = 64;

// ── Rows and the catalog ──────────────────────────────────────────────────────────────────────

/** Records read ahead to recognize an export by its values (a header in an unknown language). */
export const SAMPLE_RECORDS = 20;

/** Fields named in a message: at most this many, each at most this long. */
export const SHOWN_FIELDS = 20;
export const SHOWN_FIELD_LENGTH = 40;

/** Cents: the minor unit of nearly every currency. */
export const DEFAULT_PRICE_DECIMALS = 2;

/** The widest `--price-decimals` taken: PrestaShop keeps six, no currency has more than three. */
export const MAX_PRICE_DECIMALS = 6;

// ── The queue and the producer ────────────────────────────────────────────────────────────────

/**
 * Rows per chunk job: a million-row catalog is ten thousand jobs, not a million
 * (docs/architecture.md, decision 2), and a chunk tried again costs at most this many diffs.
 */
export const DEFAULT_CHUNK_SIZE = 100;

/**
 * Rows per chunk job of an `--incremental` run. Most of its rows send no request (they are diffed
 * against what this tool last sent), so a chunk's cost is its Redis look-ups and its job: the id
 * map's read costs a command per bucket its keys fall in (100 keys fall in ~95 of the 1,024 buckets,
 * 1,000 in ~630) and BullMQ's ~40 commands per job, the settle and the run's keep-alive are shared
 * by ten times the rows. Issue 31: an unchanged re-run at 2,000 rows went from 1.70 Redis commands
 * per row to 0.84 (test/integration/sync/redis-commands-per-row.test.ts). Every other run keeps
 * DEFAULT_CHUNK_SIZE: its rows are mostly requests, a chunk tried again re-diffs fewer of them, and
 * approvals, a guarded run's writes and deactivations keep it too.
 */
export const INCREMENTAL_CHUNK_SIZE = 1000;

/**
 * Chunk jobs waiting in a seller's queue above which the producer stops reading the source
 * (decision 6): 20,000 rows, ≈ 5.8 MiB of Redis, whatever the catalog's size. It is counted in
 * chunks of DEFAULT_CHUNK_SIZE: a run of bigger chunks waits at fewer of them, so that the rows
 * queued stay the same (queue/chunking.ts).
 */
export const DEFAULT_HIGH_WATER = 200;

/**
 * Rows the producer settles itself (invalid, merged, not sold) written in one step: a fixed count,
 * not a multiple of the chunk size, so that an `--incremental` run's bigger chunks do not make a
 * settle of 10,000 rows (six arguments each to one script call).
 */
export const SETTLED_BY_PRODUCER_AT_ONCE = 10 * DEFAULT_CHUNK_SIZE;

/**
 * Rows read between turns of the event loop while a chunk is being written. Records the parser
 * already holds (~850 per 64 KiB read) reach the producer through promise callbacks alone, and
 * those all run before any socket is read: a chunk's Redis replies waited for the source's next
 * read, and each flush then waited for the chunk (2.6 s of a 300,000-row import's 6 s, issue 12).
 */
export const ROWS_BETWEEN_TURNS = 16;

/**
 * A written row's settle waits up to `ms` for other rows of its chunk, or until `rows` rows wait
 * (runs/settle-batch.ts): a settle's own ~8 Redis commands are then shared by ~8 rows at 20 ms and
 * 16 requests at once (issue 31: ≤ 8 commands per created row; 12.9 when each settle carried the
 * 1–2 rows answered while the one before was on its way). A worker killed mid-chunk leaves the
 * writes of its last `ms` unrecorded, as it leaves those in flight: their claims have them looked for.
 */
export const SETTLE_HOLD = { ms: 10, rows: 32 };

/**
 * `run` reads its source on the thread that sends its requests: after its first chunks the read
 * waits until a worker of this process has begun the run's rows (list read done, first writes
 * under way), at most this long (the seller paused, say). Parsing the rest of a 2,000-row file
 * first delayed the first write by ~40 ms at 20 ms latency (issue 31: pace against a bare client).
 */
export const READ_HELD_FOR_FIRST_ROWS_MS = 1000;

/** Chunks written at once: a chunk's keys and run check go out while the one before it is added (flush). */
export const CHUNK_WRITES_AT_ONCE = 2;

/** How often the producer renews the lifetime of the run's keys while it reads. */
export const PRODUCER_KEEP_EVERY_MS = 5_000;

/** How often a producer renews its `producing` mark; the mark lasts PRODUCING_BEATS_KEPT beats. */
export const PRODUCING_BEAT_MS = 10_000;
export const PRODUCING_BEATS_KEPT = 6;

/**
 * Beats without a change after which a producer is taken for dead: its mark would last three more.
 * A live one whose renewal is late this long (Redis away, a loop blocked) loses its run to a re-run,
 * which reads the source again: nothing is lost, and the claims keep a product from being made twice.
 */
export const BEATS_BEFORE_DEAD = 3;

/**
 * Tries of a chunk job, with an exponential backoff from CHUNK_JOB_BACKOFF_MS. Rows settle once
 * each, so a chunk tried again after a Redis error is safe; an API failure settles rows instead of
 * failing the job, so these tries are for Redis faults, not for requests.
 */
export const CHUNK_JOB_ATTEMPTS = 5;
export const CHUNK_JOB_BACKOFF_MS = 1000;

/** Failed jobs BullMQ keeps per queue, for a person to look at; completed ones are not kept. */
export const FAILED_JOBS_KEPT = 1000;

/**
 * Events BullMQ keeps in each queue's event stream. Its default, 10,000, costs about 0.5 MB of Redis
 * per seller queue whatever the catalog's size (issue 12: a few hundred sellers would hold more in
 * events than in their id maps), and nothing of catalog-sync reads the stream (no QueueEvents: `run`
 * and the dashboard read the run records and the job counts).
 */
export const EVENTS_KEPT = 100;

/** Jobs read per call while `cancel` looks for a run's queued chunks. */
export const CANCEL_JOBS_PAGE = 500;

/**
 * The longest a run idle with its rows held (a seller paused for the day) goes between two looks for
 * rows that nothing holds (a chunk Redis lost: queue/lost-chunks.ts); the first comes after the lock
 * and a stall check (CATALOG_SYNC_LOCK_MS, CATALOG_SYNC_STALL_CHECK_MS), each next one twice as late.
 * A look reads the run's jobs and its outcomes page by page: once a minute at most, a paused run
 * costs Redis little, and a chunk lost during such a pause ends its run at the next look.
 */
export const LOST_ROWS_LOOK_MAX_MS = 60_000;

/** How long a job waits before another try when this worker lacks the run's key. */
export const KEY_UNAVAILABLE_RETRY_MS = 60_000;

/**
 * How long a chunk put back behind an earlier run of its seller waits at most (queue/run-order.ts):
 * the end of that run moves it back at once; this is for an end nobody saw (a process killed in
 * between). Long, so that a seller's chunks waiting on a slow run are not taken again and again.
 */
export const RUN_ORDER_RECHECK_MS = 60_000;

/**
 * A pause whose end no answer tells (a daily limit without a reset time, a request that never
 * reached the API): the seller is looked at again after this.
 */
export const UNTIMED_PAUSE_MS = 60_000;

/**
 * How long before a daily-limit pause ends the seller's queue takes jobs again (issue 31): a chunk
 * taken then gets ready (its job, its Redis reads) and waits out the rest of the pause, so that its
 * first request leaves at the reset, not that setup later. Nothing is sent before the reset.
 */
export const WAKE_LEAD_MS = 250;

/**
 * How often an approve renews its heartbeat on the run record while it queues its writes
 * (queue/approval-beat.ts), and how old that heartbeat must be before another approve, `status` and
 * the dashboard take the approve for stopped. However long a live one takes to queue (a huge held
 * run, a slow Redis), it is never taken for stopped, so two live ones never queue the same writes
 * side by side. Six beats: a few late or lost renewals (Redis away a moment), and a few seconds
 * between the clocks of the host that approves and the one that asks, are not a stop.
 */
export const APPROVAL_BEAT_MS = 5_000;
export const APPROVAL_STOPPED_AFTER_MS = 6 * APPROVAL_BEAT_MS;

// ── Workers and their sellers ─────────────────────────────────────────────────────────────────

/**
 * Times a job may stall (its lock lost) and still come back instead of failing: a worker killed
 * mid-chunk is no fault of the rows, and a chunk tried again is safe (rows settle once each).
 */
export const MAX_STALLED_COUNT = 100;

/**
 * Chunk attempts a worker remembers after they ended (queue/chunk-attempts.ts): one handed out again
 * after its lock ran out (Redis away past it) is known to follow this process's own attempt, whose
 * requests were counted, so the run's counts are not said to be lower bounds. A chunk comes back
 * within a stall check; a thousand is minutes of a busy worker, and a few tens of kilobytes.
 */
export const CHUNK_ATTEMPTS_REMEMBERED = 1000;

/**
 * How a worker shares its slots among sellers: seller queues served at once (each a blocking
 * connection), how long a seller keeps its slot while another with work waits, and how long a
 * served queue may have no work before its slot is let go.
 */
export const SELLER_ROTATION = { slots: 4, sliceMs: 15_000, idleMs: 5_000 };

/** How often a serving process renews its marks, and how long a mark outlives the last renewal. */
export const SERVED_RENEW_MS = 10_000;
export const SERVED_TTL_MS = 30_000;

/**
 * How often the registry of sellers is read whole at the least; a seller registered by `import`, a
 * key linked to a seller (`resume`, `--seller`) or a worker's keys file changed shows up at the next
 * tick (the registry's size, the links' count, the file's signature: seller-queue-slots.ts).
 */
export const REGISTRY_READ_MS = 30_000;

/**
 * Queue reads a tick may make per second: with more sellers than this the ticks space out (3,000
 * sellers: one read of every queue each 3 s), so an idle worker costs Redis little whatever the count.
 */
export const QUEUE_READS_PER_SECOND = 1000;

/** Active jobs looked at for a lost lock: a queue has at most a few chunks per worker active. */
export const ACTIVE_LOOKED_AT = 64;

/** Fired jobs kept for inspection (e.g. in a dashboard): enough to see why the last ones failed. */
export const KEEP_FIRED_JOBS = 50;

// ── A seller's quota and reach ────────────────────────────────────────────────────────────────

/**
 * The largest and smallest block of request numbers a process reserves from the seller's daily
 * count at once (its concurrency decides between them): one Redis call per block, not per request.
 */
export const QUOTA_BLOCK_MAX = 64;
export const QUOTA_BLOCK_MIN = 16;

/**
 * How long a block reserved against a seller's known limit is used without a look at Redis (one
 * reservation a second at most): long enough that a block serves many requests, short enough that
 * a process that only uses its block learns of another's 429 or of a new window within it.
 */
export const LIMITED_BLOCK_FRESH_MS = 1000;

/**
 * Past a seller's known limit, a request goes only once every request of the window is answered, in
 * every process (request-quota.ts): how often a process looks again while others are in flight, and
 * how long it waits at most (a process killed with requests in flight never reports them).
 */
export const LIMIT_PROBE_POLL_MS = 20;
export const LIMIT_PROBE_WAIT_MAX_MS = 10_000;

/** A quota day's request counter is kept two days, then goes: no day's count is needed after its end. */
export const QUOTA_COUNTER_TTL_SECONDS = 2 * 24 * 3600;

/** Kept a week, like a run: a seller nobody serves any more does not stay in Redis for ever. */
export const UNREACHABLE_TTL_SECONDS = 7 * 24 * 3600;

// ── One row against the products ──────────────────────────────────────────────────────────────

/** How often a row whose key another live create holds looks again. */
export const CLAIM_POLL_MS = 250;

/**
 * How long a claim holds without renewal, by default: a dead holder's key is looked up and taken over
 * after it. Workers pass their job lock duration, so a killed worker's claims go stale when its jobs
 * come back (CATALOG_SYNC_LOCK_MS).
 */
export const CLAIM_MS = 30_000;

/**
 * The run's one list read (decision 3) is done by the chunk that takes this lock; the other chunks
 * of the run look every SNAPSHOT_POLL_MS whether it is ready. No longer than the job lock: a killed
 * reader frees the list read by the time its chunks are taken back.
 */
export const SNAPSHOT_LOCK_MS = DEFAULT_LOCK_MS;
export const SNAPSHOT_POLL_MS = 200;

/**
 * Moving an id map to its bucketed form: entries per batch (one MULTI each), the lock the mover
 * holds, and how often the others look whether it is done.
 */
export const ID_MAP_MIGRATION_BATCH = 1000;
export const ID_MAP_MIGRATION_LOCK_MS = 30_000;
export const ID_MAP_MIGRATION_WAIT_MS = 50;

// ── The Seller API ────────────────────────────────────────────────────────────────────────────

/** A request with no answer in this long is a time-out (then retried as the error table says). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `ping`, and the key `resume` checks before it lifts a key-rejected pause: one request, answered at once by a live API. */
export const PING_TIMEOUT_MS = 15_000;

/** The exports' tries: fewer and shorter than a run's, a person is waiting at the terminal. */
export const EXPORT_RETRY = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000 };

/**
 * How long a socket may wait idle in the pool: undici's default, below the 5 s that Node servers
 * keep an idle connection. A server that announces `Keep-Alive: timeout=N` is believed, less 1 s
 * (Node's agent does that), so a request is not sent on a socket the server is closing.
 */
export const IDLE_SOCKET_MS = 4_000;

/** Further than this is not a daily limit's reset: a misread header, so the daily reset wins. */
export const MAX_RESET_AHEAD_MS = 48 * 3_600_000;

/**
 * A reset this little in the past means "now" (clock skew, or an HTTP date's whole seconds);
 * further in the past it is stale, and the daily reset wins.
 */
export const CLOCK_SKEW_MS = 60_000;

/** The longest reason we keep: enough for a validation message, short enough for a report cell. */
export const MAX_REASON_LENGTH = 300;

/** An error keeps at most this much of a body: enough to diagnose, not a whole list page in memory. */
export const MAX_BODY_LENGTH = 10_000;

/** Figures no real seller reaches: a catalog of 5 million products, 4 GiB of JSON, 1,000 fields. */
export const ANSWER_CAPS = {
  pageBytes: 16 * 1024 * 1024,
  totalBytes: 4 * 1024 * 1024 * 1024,
  pages: 100_000,
  records: 5_000_000,
  columns: 1_000,
};

/**
 * A run's `--notify` webhook: tries, the first backoff (doubling), and each POST's time-out. A
 * receiver that cannot take a small JSON body in 5 s is down; the run does not wait for it long.
 */
export const WEBHOOK_DELIVERY = { attempts: 3, backoffMs: 500, timeoutMs: 5_000 };

// ── Runs and their records ────────────────────────────────────────────────────────────────────

/** Run data is kept a week: long enough to read the report of last night's run, then it goes. */
export const RUN_TTL_SECONDS = 7 * 24 * 3600;

/**
 * The most rows a run record may count (`total`, `settled`): a figure no real run reaches (the
 * largest catalogs hold a few million products), so a count above it, or not a whole number, was
 * not written by catalog-sync (Redis is not trusted), and is refused before a loop or an allocation
 * runs over it (`report`, `--failed-only`, `status`, `approve`, `cancel`, the dashboard, a worker).
 */
export const MAX_RUN_ROWS = 50_000_000;

/** Reverts of a run remembered (when, and what each did): more than anyone runs on one run. */
export const REVERTS_KEPT = 10;

/**
 * How long a finalise claim holds unless renewed (every quarter of it): no longer than the job lock
 * (DEFAULT_LOCK_MS), so a killed finaliser's lease has run out by the time its chunk is taken back.
 */
export const FINALISE_LEASE_MS = DEFAULT_LOCK_MS;

/** How long a caller waits for another's lease to end, before it leaves the run to that one. */
export const FINALISE_WAIT_MS = 60_000;

/**
 * A list page's size is the API's own (spec section 8: "page sizes: not shown"); this guess only
 * decides whether a few GETs by id cost less than reading every page.
 */
export const PRODUCTS_PER_PAGE_GUESS = 100;

// ── Commands ──────────────────────────────────────────────────────────────────────────────────

/** `--full-read-after`'s default: a week, so drift on the marketplace is repaired at least weekly. */
export const DEFAULT_FULL_READ_AFTER_MS = 7 * 24 * 3600 * 1000;

/** A probe at the start of a run is one request: it gets this long before it counts as no answer. */
export const REACH_PROBE_TIMEOUT_MS = 10_000;

/** How far V8 lets the heap grow past a full collection's survivors (its default: up to 4×); see cli/heap-growth.ts. */
export const HEAP_GROWING_PERCENT = 30;

/** How often the worker reads which of its sellers have work. */
export const SLOTS_TICK_MS = 1000;

/**
 * How long `import` waits for a worker to say it serves a seller before saying that none does: a
 * seller's first import registers it, and a running worker sees that at its next read (SLOTS_TICK_MS)
 * and marks it at once; two reads and a margin.
 */
export const WORKER_NOTICE_MS = 2 * SLOTS_TICK_MS + 500;

/**
 * How long a command's workers may take to finish or hand back their chunks as it ends
 * (CATALOG_SYNC_CLOSE_DEADLINE_MS); short when Redis is gone, since nothing can be handed back then.
 */
export const CLOSE_DEADLINE_MS = 10_000;
export const CLOSE_DEADLINE_WITHOUT_REDIS_MS = 1_000;

/** A fixed default port, so the printed lines stay valid across restarts; `--port 0` takes any free one. */
export const DEFAULT_SANDBOX_PORT = 4010;

// ── Reading a store through its API (shopify://, woocommerce://) ─────────────────────────────

/** One answer of a store's API (a poll, a page) may hold this much; a page of 100 products is far less. */
export const STORE_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Waits asked by the store (throttle, Retry-After) are capped: a wrong header must not hang a run. */
export const STORE_MAX_WAIT_MS = 5 * 60_000;

/** A wait the store asks for this long or longer is said as it begins (store-wait.ts): shorter ones pass unseen. */
export const STORE_WAIT_SAID_MS = 5000;

/** Throttled or busy answers in a row before the run gives up (each waited out first). */
export const STORE_MAX_RETRIES_IN_A_ROW = 20;

/**
 * A read of a store that failed on the way (a 500, 502 or 504, a connection refused or reset) is
 * tried again this many times, after STORE_RETRY_FIRST_MS, then twice as long each time (store-tries.ts).
 */
export const STORE_RETRIES = 3;
export const STORE_RETRY_FIRST_MS = 1000;

/** Shopify: the first wait between polls of a bulk operation; it grows to the next (a big shop's file takes minutes). */
export const SHOPIFY_POLL_FIRST_MS = 1000;
export const SHOPIFY_POLL_MAX_MS = 10_000;

/**
 * Shopify: the most of a bulk result file that is not grouped by product (`groupObjects` not
 * honoured: product-groups.ts) held to join each product's variants and images to it, in bytes of
 * its JSON lines: a shop of some 30,000 products. A larger file ends the read in one line.
 */
export const SHOPIFY_UNGROUPED_MAX_BYTES = 128 * 1024 * 1024;

/** WooCommerce: pages read of one collection at most (100 items each): ten million products. */
export const WOO_MAX_PAGES = 100_000;

/**
 * WooCommerce: times one read of a collection steps back (one request each) because items before it
 * were deleted meanwhile (read-by-id.ts). A few per read are usual; a store changing more than this
 * under one read (a bulk import running) ends the run with one line, to be read again later.
 */
export const WOO_MAX_STEPS_BACK = 1000;

/** WooCommerce: categories held to build their paths (`Clothing > Tshirts`) at most; a store has far fewer. */
export const WOO_MAX_CATEGORIES = 100_000;

// ── Dashboard and metrics ─────────────────────────────────────────────────────────────────────

/** The dashboard's default port: fixed, as the sandbox's, so a printed or bookmarked address stays valid. */
export const DEFAULT_DASHBOARD_PORT = 4020;

/** Runs the dashboard lists by default, and at most (`?limit=`). */
export const DEFAULT_RUNS_LIMIT = 50;
export const MAX_RUNS_LIMIT = 500;

/** How often the dashboard page reads its data again. */
export const DASHBOARD_REFRESH_MS = 2000;

/** How many recent runs are read to learn each seller's daily reset. */
export const RECENT_RUNS_FOR_RESET = 50;

/** Jobs read per call while the metrics count the rows queued. */
export const METRICS_JOBS_PAGE = 200;

/**
 * How long a metrics scrape waits for its reads of Redis: well under Prometheus's default 10 s
 * scrape timeout, so a Redis that does not answer still leaves a scrape with the counters.
 */
export const METRICS_REDIS_READ_MS = 2_500;
