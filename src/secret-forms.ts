/** What replaces a secret in any text an API's or a store's answer gave. */
export const REDACTED = '[redacted]';

/**
 * The forms an echo of `value` takes, as sent first: URL-encoded (a query string or form quoted
 * back; `+`, `/`, `=` and `&` change), with lower-case hex too (some servers write it so), JSON-
 * escaped (`\/`, as PHP writes a slash, and `\"`, `\\`). A body's `\u…` escapes are undone by
 * parsing it first (redactJsonText, redactParsed): no list of forms could hold them all. And its
 * base64 (padded or not, and URL-safe), as an API that quotes an `Authorization` value it decoded
 * or encoded again writes it. Every form is matched whatever its case (SecretForms' pattern), so
 * an echo upper-cased (`SK_LIVE_…`) is cut too.
 */
export function secretForms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  return [
    value,
    encoded,
    JSON.stringify(value).slice(1, -1),
    value.replaceAll('/', '\\/'),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ];
}

/**
 * Every secret the tool holds for one API or store (the Seller API key, a store's token or REST API
 * keys and their `Basic` header value), kept out of every text its answers give: docs promise no key
 * reaches logs, Redis, reports, webhooks or messages. The one implementation of that redaction.
 */
export class SecretForms {
  /** Every form in one pattern, compiled once per set of secrets: a text is looked at once, not once a form. */
  private readonly pattern: RegExp | null;

  constructor(values: Iterable<string | undefined>) {
    const forms = new Set<string>();
    for (const value of values) if (value) for (const form of secretForms(value)) forms.add(form);
    // Longest first: where two forms start at one place, the one that holds the other is replaced whole.
    const longestFirst = [...forms].sort((a, b) => b.length - a.length);
    // Case-insensitive: an echo upper- or lower-cased (and URL-encoded hex in either case) is cut.
    this.pattern = forms.size === 0 ? null : new RegExp(longestFirst.map(literal).join('|'), 'gi');
  }

  /** `text` with every form of every secret replaced. */
  redact(text: string): string {
    if (this.pattern === null || text === '') return text;
    // lastIndex: the pattern is global (for replace); a test must start at the beginning.
    this.pattern.lastIndex = 0;
    return this.pattern.test(text) ? text.replace(this.pattern, REDACTED) : text;
  }

  /**
   * True when a secret may be in `text`, in one of its forms or hidden in escapes (a backslash):
   * only then is a parsed body walked.
   */
  mayHold(text: string): boolean {
    if (this.pattern === null) return false;
    this.pattern.lastIndex = 0;
    return text.includes('\\') || this.pattern.test(text);
  }

  /** A parsed JSON answer with every string (property names included) redacted, in place. */
  redactParsed<T>(value: T): T {
    return this.redactIn(value, { found: false }) as T;
  }

  /**
   * A body as an error keeps it: the secrets replaced in the raw text (a body that is not JSON), and
   * a JSON body that still held one in escapes written again from its redacted strings.
   */
  redactJsonText(text: string): string {
    const raw = this.redact(text);
    if (!this.mayHold(raw) || !/^\s*[[{"]/.test(raw)) return raw;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
    const seen = { found: false };
    const redacted = this.redactIn(parsed, seen);
    return seen.found ? JSON.stringify(redacted) : raw;
  }

  /**
   * The last line of defence, where an error leaves a reader: its message (and stack, which a log
   * may print) redacted in place, so its class is kept (a read that broke half way, a failure that is
   * tried again, are told apart by it).
   */
  scrub(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    error.message = this.redact(error.message);
    if (error.stack) error.stack = this.redact(error.stack);
    return error;
  }

  private redactIn(value: unknown, seen: { found: boolean }): unknown {
    if (typeof value === 'string') {
      const redacted = this.redact(value);
      if (redacted !== value) seen.found = true;
      return redacted;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.redactIn(value[i], seen);
      return value;
    }
    if (typeof value !== 'object' || value === null) return value;
    const object = value as Record<string, unknown>;
    for (const name of Object.keys(object)) {
      const redacted = this.redactIn(object[name], seen);
      const safeName = this.redact(name);
      if (safeName !== name) {
        seen.found = true;
        delete object[name];
      }
      object[safeName] = redacted;
    }
    return object;
  }
}

/**
 * Values shorter than this are not held for every text: they would blank out ordinary words, and no
 * API key, store token or REST API key is so short. (A client still cuts its own key, whatever its length.)
 */
export const MIN_HELD_LENGTH = 8;

/**
 * Every secret this process has loaded: each seller's key (the environment's, a keys file's), each
 * store's token or REST API keys and their `Basic` value. A text an answer gave may quote any of
 * them, not only the one its request was sent with (a marketplace or a proxy echoing a header,
 * another seller's key in the same keys file): every error and row reason is cut of all of them.
 */
const held = new Set<string>();
let heldForms: SecretForms | null = null;
/** The held secrets with one more (a client's own key too short to hold): built once per key and set. */
let withOne: { value: string; of: SecretForms; forms: SecretForms } | null = null;

/** Adds loaded secrets to those every text is cut of; their forms are built again once, at the next use. */
export function holdSecrets(values: Iterable<string | undefined>): void {
  for (const raw of values) {
    const value = raw?.trim();
    if (!value || value.length < MIN_HELD_LENGTH || held.has(value)) continue;
    held.add(value);
    heldForms = null;
  }
}

/** The forms of every held secret, built once per set (not per text, not per row). */
export function heldSecrets(): SecretForms {
  heldForms ??= new SecretForms(held);
  return heldForms;
}

/**
 * The held secrets and `value` (a client's key): held from now on when long enough, else added to
 * the held ones for its own answers only.
 */
export function secretsWith(value: string | undefined): SecretForms {
  holdSecrets([value]);
  const forms = heldSecrets();
  if (!value || held.has(value.trim())) return forms;
  if (withOne === null || withOne.value !== value || withOne.of !== forms)
    withOne = { value, of: forms, forms: new SecretForms([value, ...held]) };
  return withOne.forms;
}

/**
 * `text` with every held secret cut, in every form: where a text (an error's message, a row's
 * reason) enters what the tool keeps (Redis, the report, `status`, a webhook, a log). One look at
 * the text when it holds none.
 */
export function redactHeld(text: string): string {
  return text === '' ? text : heldSecrets().redact(text);
}

/** `text` as a pattern that matches it alone. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
