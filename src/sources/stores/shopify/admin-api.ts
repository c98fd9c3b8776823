import { STORE_MAX_ANSWER_BYTES, STORE_MAX_RETRIES_IN_A_ROW } from '../../../defaults.js';
import type { AddressKind } from '../../../net/address-policy.js';
import { SecretForms } from '../../../secret-forms.js';
import { SourceError, sourceError } from '../../source-error.js';
import type { ShopifyCredentials } from '../credentials.js';
import {
  type CallAnswer,
  callStore,
  connectionOf,
  parseJson,
  retryAfterMs,
  StoreCallFailure,
} from '../http-call.js';
import { isPassingStatus, StoreTries } from '../store-tries.js';
import type { StoreAddress } from '../store-url.js';
import { waitAsAsked } from '../store-wait.js';
import { type StoreReadOptions, sleepOf } from '../types.js';
import { adminRedirectLine, htmlPageLine, isWebPage } from './admin-answer-lines.js';

interface GraphqlAnswer {
  data?: unknown;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
  extensions?: {
    cost?: {
      requestedQueryCost?: number;
      throttleStatus?: { currentlyAvailable?: number; restoreRate?: number };
    };
  };
}

/**
 * The shop's Admin GraphQL endpoint. A THROTTLED answer is waited out as its cost extension says
 * (the points the query needs, less those available, at the restore rate), a 429 or 503 as its
 * Retry-After says; a rejected token is one line naming the variable it came from. A query that
 * only reads (a poll) is tried again after a 500, 502 or 504 or a broken connection; the mutation
 * that starts the bulk operation only when its request never left (store-tries.ts).
 */
export class ShopifyAdminApi {
  /** The kind of address the API answered from: the result file's URL is judged as a redirect from it. */
  kind: AddressKind | undefined;
  /**
   * A call that may change the shop (the mutation that starts the bulk operation) is under way: sent,
   * its answer not read yet. Between such calls, Shopify has started nothing that was not answered.
   */
  changing = false;
  private readonly endpoint: URL;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly secrets: SecretForms;

  constructor(
    private readonly store: StoreAddress,
    private readonly credentials: ShopifyCredentials,
    readonly version: string,
    private readonly options: StoreReadOptions,
  ) {
    this.endpoint = new URL(`/admin/api/${version}/graphql.json`, store.base);
    this.sleep = sleepOf(options);
    this.secrets = new SecretForms(credentials.secrets);
  }

  /** `reads`: the query changes nothing in the shop (not a mutation), so another try costs nothing. */
  async query<T>(query: string, variables: Record<string, unknown> = {}, reads = true): Promise<T> {
    const label = this.store.display;
    const failures = new StoreTries(reads, this.sleep);
    // Busy and throttled answers in a row (their own bound, STORE_MAX_RETRIES_IN_A_ROW).
    let tries = 0;
    for (;;) {
      let answer: CallAnswer;
      this.changing = !reads;
      try {
        answer = await callStore(
          this.endpoint,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-shopify-access-token': this.credentials.token,
            },
            body: JSON.stringify({ query, variables }),
          },
          label,
          {
            ...connectionOf(this.options),
            maxBytes: STORE_MAX_ANSWER_BYTES,
          },
        );
      } catch (error) {
        // A request that may have reached Shopify: it may have started what it asked for.
        this.changing = !reads && !(error instanceof StoreCallFailure && !error.sent);
        await failures.afterFailure(error);
        continue;
      }
      this.changing = false;
      this.kind = answer.kind;
      if (answer.status === 401)
        throw sourceError(
          label,
          `Shopify refused the access token in ${this.credentials.variable} (401): check it, or create one in a custom app with read_products`,
        );
      if (answer.status === 403)
        throw sourceError(
          label,
          `the access token in ${this.credentials.variable} may not read products (403): give its custom app the read_products scope`,
        );
      if (answer.status === 404)
        throw sourceError(
          label,
          `no Admin API here (404): is this the shop's myshopify.com host, and API version ${this.version} supported?`,
        );
      const busy = answer.status === 429 || answer.status === 503;
      if (busy) {
        this.checkWaits(tries++, 'busy');
        await waitAsAsked(
          `${label}: the Admin API answered ${answer.status}`,
          retryAfterMs(answer.headers, (this.options.now ?? Date.now)()),
          2000,
          this.options,
        );
        continue;
      }
      const failed = `${label}: the Admin API answered ${answer.status}`;
      if (isPassingStatus(answer.status)) {
        await failures.afterPassingStatus(failed);
        continue;
      }
      if (answer.status >= 300 && answer.status <= 399)
        throw new SourceError(adminRedirectLine(failed, this.endpoint, answer.headers.location));
      if (answer.status < 200 || answer.status > 299) throw new SourceError(failed);
      if (isWebPage(answer)) throw sourceError(label, htmlPageLine(this.endpoint));
      // A GraphQL error (or any text of the answer a message quotes) may echo the token it was sent.
      const body = this.secrets.redactParsed(
        parseJson(answer.body, label, "the Admin API's answer"),
      ) as GraphqlAnswer;
      const throttled = body.errors?.some((error) => error.extensions?.code === 'THROTTLED') === true;
      if (throttled) {
        this.checkWaits(tries++, 'throttled');
        await waitAsAsked(
          `${label}: the Admin API throttled the query (THROTTLED)`,
          throttleWaitMs(body),
          0,
          this.options,
        );
        continue;
      }
      if (body.errors && body.errors.length > 0) {
        const first = body.errors[0]?.message ?? 'an error';
        if (body.errors.some((error) => error.extensions?.code === 'ACCESS_DENIED'))
          throw sourceError(
            label,
            `the access token in ${this.credentials.variable} may not read products (ACCESS_DENIED): give its custom app the read_products scope`,
          );
        throw sourceError(label, `the Admin API refused the query: ${oneLine(first)}`);
      }
      return body.data as T;
    }
  }

  /** Busy and throttled answers in a row have their own bound. */
  private checkWaits(tries: number, why: string): void {
    if (tries >= STORE_MAX_RETRIES_IN_A_ROW)
      throw new SourceError(`${this.store.display}: the Admin API stayed ${why} after ${tries} waits`);
  }
}

/** How long until the bucket holds the query's cost again, from the answer's cost extension (1 s at least). */
export function throttleWaitMs(body: GraphqlAnswer): number {
  const cost = body.extensions?.cost;
  const needed = cost?.requestedQueryCost ?? 0;
  const available = cost?.throttleStatus?.currentlyAvailable ?? 0;
  const rate = cost?.throttleStatus?.restoreRate ?? 0;
  if (!(rate > 0)) return 1000;
  return Math.max(1000, Math.ceil(((needed - available) / rate) * 1000));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
