/** What replaces a secret in any text an API's or a store's answer gave. */
export const REDACTED = '[redacted]';

/**
 * The forms an echo of `value` takes, as sent first: URL-encoded (a query string or form quoted
 * back; `+`, `/`, `=` and `&` change), with lower-case hex too (some servers write it so), JSON-
 * escaped (`\/`, as PHP writes a slash, and `\"`, `\\`). A body's `\u…` escapes are undone by
 * parsing it first (redactJsonText, redactParsed): no list of forms could hold them all.
 */
export function secretForms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  return [
    value,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    JSON.stringify(value).slice(1, -1),
    value.replaceAll('/', '\\/'),
  ];
}

/**
 * Every secret the tool holds for one API or store (the Seller API key, a store's token or REST API
 * keys and their `Basic` header value), kept out of every text its answers give: docs promise no key
 * reaches logs, Redis, reports, webhooks or messages. The one implementation of that redaction.
 */
export class SecretForms {
  private readonly forms: string[];

  constructor(values: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    for (const value of values) if (value) for (const form of secretForms(value)) forms.add(form);
    // Longest first: a secret (or form) that holds another is replaced whole.
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** `text` with every form of every secret replaced. */
  redact(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * True when a secret may be in `text`, in one of its forms or hidden in escapes (a backslash):
   * only then is a parsed body walked.
   */
  mayHold(text: string): boolean {
    if (this.forms.length === 0) return false;
    return text.includes('\\') || this.forms.some((form) => text.includes(form));
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
