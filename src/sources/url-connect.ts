import type { Duplex } from 'node:stream';
import { CONNECT_TIMEOUT_MS } from '../defaults.js';
import { formatDuration } from '../duration.js';
import type { AddressKind } from '../net/address-policy.js';
import {
  AddressRefusedError,
  connectChecked,
  type NetworkSeams,
  NoAddressError,
} from '../net/checked-connect.js';
import { SourceError, sourceError } from './source-error.js';

export type { Connector, ConnectTarget, LookupFunction } from '../net/checked-connect.js';

/** The network seams of a URL source; tests inject both so that nothing leaves loopback. */
export type SourceNetwork = NetworkSeams;

/** What a hop's connection may reach, and how long it has. */
export interface ConnectOptions extends SourceNetwork {
  /** `--allow-private-source`. */
  allowPrivateSource?: boolean;
  /** A job file named the URL (not the command line): loopback and private take the flag too. */
  namedByJob?: boolean;
  connectTimeoutMs?: number;
}

/** No connection within the connect time-out: nothing was sent (another try may connect). */
export class ConnectTimeoutError extends SourceError {
  override name = 'ConnectTimeoutError';
}

/**
 * Resolves the hop's host once, refuses an address the policy does not allow, and connects to
 * exactly that address (the next allowed one when a connection fails), within the connect time-out.
 */
export async function connectHop(
  url: URL,
  from: AddressKind | undefined,
  label: string,
  options: ConnectOptions,
  /** The redirect's target as messages show it (redactUrl), or null for the URL given. */
  redirectedTo: string | null,
  /** What the messages say could not be done: a feed's, or a store's `cannot reach the store`. */
  cannot = 'cannot fetch the feed',
): Promise<{ socket: Duplex; kind: AddressKind }> {
  const limit = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limit);
  try {
    return await connectChecked(url, {
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.connect ? { connect: options.connect } : {}),
      ...(from ? { from } : {}),
      allowPrivate: options.allowPrivateSource === true,
      namedByJob: options.namedByJob === true,
      signal: controller.signal,
      abortError: () =>
        new ConnectTimeoutError(
          `${label}: ${cannot}: could not connect to ${url.host} within ${formatDuration(limit)}`,
        ),
    });
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      const why = `${error.where} is ${error.why}; --allow-private-source allows it`;
      throw sourceError(
        label,
        redirectedTo !== null ? `redirect refused to ${redirectedTo}: ${why}` : `refused: ${why}`,
      );
    }
    if (error instanceof NoAddressError) throw sourceError(label, `${cannot}: ${error.message}`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
