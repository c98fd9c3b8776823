/** What replaces a credential in any text a store's answer gave, as the Seller API key is replaced. */
export const REDACTED = '[redacted]';

/**
 * A store's credentials, kept out of every text its answers give (an error message that quotes the
 * parameters or header it refused, a redirect's address): docs/stores.md promises they never reach
 * logs, Redis, reports or messages. Each is looked for as sent and in the forms an echo takes: URL-
 * encoded (a query string quoted back), JSON-escaped (`\/`, as PHP writes a slash; a body's `\u…`
 * escapes are undone by parsing it first), and WooCommerce's `Basic` header value.
 */
export class StoreSecrets {
  private readonly forms: string[];

  constructor(values: readonly string[]) {
    const forms = new Set<string>();
    for (const value of values) {
      if (value === '') continue;
      forms.add(value);
      forms.add(encodeURIComponent(value));
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(value.replaceAll('/', '\\/'));
    }
    // Longest first: a secret that holds another is replaced whole.
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** `text` with every credential replaced. */
  redact(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /** A parsed JSON answer with every string (property names included) redacted, in place. */
  redactParsed<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.redactParsed(value[i]);
      return value;
    }
    if (typeof value !== 'object' || value === null) return value;
    const object = value as Record<string, unknown>;
    for (const name of Object.keys(object)) {
      const redacted = this.redactParsed(object[name]);
      const safeName = this.redact(name);
      if (safeName !== name) delete object[name];
      object[safeName] = redacted;
    }
    return value;
  }

  /**
   * The last line of defence, where an error leaves the store's reader: its message (and stack, which
   * a log may print) redacted in place, so its class is kept (a read that broke half way, a failure
   * that is tried again, are told apart by it).
   */
  scrub(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    error.message = this.redact(error.message);
    if (error.stack) error.stack = this.redact(error.stack);
    return error;
  }
}
