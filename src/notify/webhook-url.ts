import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, refusal } from '../net/address-policy.js';
import { type AllowedHost, WEBHOOK_HOSTS_VARIABLE, webhookRefusal } from '../trust-rules.js';
import { UsageError } from '../usage-error.js';

/**
 * `--notify URL` (job files: `notify:`): an http(s) URL that receives one POST per run event.
 * A Slack webhook URL holds its token in the path: only the origin is ever logged or shown.
 */
export function parseNotifyUrl(value: string, origin = '--notify'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${origin} takes an http(s) URL, not "${shown(value)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${origin} takes an http(s) URL, not a ${url.protocol.replace(/:$/, '')}: URL`);
  }
  return url.toString();
}

/** What a log line or a message may say of a webhook URL: its origin (no path, query or credentials). */
export function webhookOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

/** Text that is not a URL, cut short: it may still be a pasted secret. */
function shown(value: string): string {
  return value.length > 24 ? `${value.slice(0, 12)}…` : value;
}

/**
 * `import --notify URL` leaves the telling to the workers, which read the URL back from Redis and
 * tell it only on a host their own CATALOG_SYNC_WEBHOOK_HOSTS lists (`run` tells its own `--notify`
 * itself, this process's command line trusted). Judged by this environment's list, the likeliest
 * the workers share: null when it lists the host, else the one line `import` says (the origin only).
 */
export function workersMayNotTellLine(url: string, hosts: readonly AllowedHost[]): string | null {
  if (webhookRefusal(url, hosts) === null) return null;
  return (
    `--notify ${webhookOrigin(url)} is told only by workers whose ${WEBHOOK_HOSTS_VARIABLE} lists ` +
    `${new URL(url).host}; this environment's does not`
  );
}

/**
 * A job file is not trusted: its webhook must be on a host the operator's environment lists
 * (`hosts`, CATALOG_SYNC_WEBHOOK_HOSTS), as a worker that reads it back from Redis will require.
 */
export function checkJobNotifyHost(url: string, origin: string, hosts: readonly AllowedHost[]): void {
  if (webhookRefusal(url, hosts) === null) return;
  throw new UsageError(
    `${origin}: the host of ${webhookOrigin(url)} is not allowed: a job file's webhook must be on a host ` +
      `listed in ${WEBHOOK_HOSTS_VARIABLE} (a comma list, in the environment), or given with --notify`,
  );
}

/**
 * A job file is not trusted: its webhook gets the address policy of the feeds a job file names
 * (address-policy.ts): loopback and private addresses too take the operator's
 * `--allow-private-source`. Judged on every address its host resolves to, before any request.
 * The POST, later and perhaps elsewhere, is judged again on the address it connects to, by the same
 * rule and the sending process's own flag (the run's `notifyFromJob`: notifier.ts): a name may rebind.
 */
export async function checkJobNotifyAddress(
  url: string,
  origin: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new UsageError(`${origin}: the host ${host} of ${webhookOrigin(url)} does not resolve`);
  }
  for (const address of addresses) {
    const refused = refusal(classifyAddress(address), undefined, allowPrivate, true);
    if (refused)
      throw new UsageError(
        `${origin}: ${webhookOrigin(url)} leads to ${refused}: refused; --allow-private-source allows it`,
      );
  }
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}
