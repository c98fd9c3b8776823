/**
 * Belt and braces for the tests that give a source URL: whatever the code under test does, no
 * connection can be opened to an address other than loopback, and no real DNS query can be sent.
 * Used by `vi.mock` in each such test file (for the modules of that file's graph, src included), and
 * `globalThis.fetch` is stubbed to throw (an earlier version of the code fetched feeds with it).
 * This module imports nothing: it is loaded by the factories that mock `node:net` itself.
 */
export function isLoopback(host: unknown): boolean {
  if (typeof host !== 'string') return false;
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export function refuseOffLoopback(what: string, host: unknown): void {
  if (!isLoopback(host))
    throw new Error(`network guard: ${what} to ${String(host)} refused (tests stay on loopback)`);
}

export function noRealDns(): never {
  throw new Error('network guard: no real DNS lookup in these tests');
}

/** `fetch` for loopback addresses only; anything else throws (the Seller API client sends through node:http). */
export function loopbackFetch(realFetch: typeof fetch): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!/^(127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname)) {
      throw new Error(`network guard: fetch to ${url.hostname} refused (tests stay on loopback)`);
    }
    return realFetch(input, init);
  };
}

/** A copy of `node:net` or `node:tls` whose `names` functions refuse a host off loopback. */
export function guardedModule<T extends Record<string, unknown>>(actual: T, names: string[]): T {
  const guarded: Record<string, unknown> = { ...actual };
  for (const name of names) {
    const original = actual[name] as (...args: unknown[]) => unknown;
    guarded[name] = Object.assign(
      (...args: unknown[]) => {
        const [first, second] = args;
        const host = typeof first === 'object' && first !== null ? (first as { host?: string }).host : second;
        refuseOffLoopback(`${name}`, host ?? 'localhost');
        return original(...args);
      },
      { loopbackGuard: true },
    );
  }
  return { ...guarded, default: guarded } as unknown as T;
}

type ImportOriginal = <T>() => Promise<T>;

/** Factories for `vi.mock` (see the top of each test file that opens a URL). */
export async function guardedDns(importOriginal: ImportOriginal) {
  return { ...(await importOriginal<typeof import('node:dns/promises')>()), lookup: noRealDns };
}

/** `node:net` whose connections and servers refuse a host off loopback. */
export async function guardedNet(importOriginal: ImportOriginal) {
  const net = await importOriginal<typeof import('node:net') & Record<string, unknown>>();
  const guarded = guardedModule(net, ['connect', 'createConnection']) as Record<string, unknown>;
  const createServer = guardedServers(net.createServer as CreateServerFn);
  return { ...guarded, createServer, default: { ...(guarded.default as object), createServer } };
}

type CreateServerFn = (...args: unknown[]) => { listen: ListenFn };

/** A `createServer` whose servers refuse to listen on a host off loopback. */
function guardedServers(originalCreateServer: CreateServerFn): CreateServerFn {
  return (...args: unknown[]) => {
    const server = originalCreateServer(...args);
    const listen = server.listen.bind(server);
    server.listen = (...listenArgs: unknown[]) => {
      const [first, second] = listenArgs;
      const host = typeof first === 'object' && first !== null ? (first as { host?: string }).host : second;
      if (typeof host === 'string') refuseOffLoopback('listen', host);
      return listen(...listenArgs);
    };
    return server;
  };
}

export async function guardedTls(importOriginal: ImportOriginal) {
  return guardedModule(await importOriginal<typeof import('node:tls') & Record<string, unknown>>(), [
    'connect',
  ]);
}

/**
 * `node:http` or `node:https` whose `request` and `get` refuse a URL off loopback, and whose servers
 * refuse to listen on a host off loopback: a test of a refused webhook address or `--host` opens
 * nothing even when the code under test would (Node's own modules connect through their internal
 * `net`, which `guardedNet` does not reach).
 */
export async function guardedHttp(importOriginal: ImportOriginal) {
  const http = await importOriginal<Record<string, unknown>>();
  const guardRequest = (name: string) => {
    const original = http[name] as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      refuseOffLoopback(name, requestHost(args[0]));
      return original(...args);
    };
  };
  const createServer = guardedServers(http.createServer as CreateServerFn);
  const guarded = { ...http, request: guardRequest('request'), get: guardRequest('get'), createServer };
  return { ...guarded, default: guarded };
}

type ListenFn = (...args: unknown[]) => unknown;

function requestHost(first: unknown): string {
  if (first instanceof URL) return first.hostname;
  if (typeof first === 'string') return new URL(first).hostname;
  const options = first as { hostname?: string; host?: string };
  return options.hostname ?? options.host ?? 'localhost';
}

/** `node:dns` whose `lookup` answers `localhost` only: no real DNS query leaves the machine. */
export async function guardedDnsLookup(importOriginal: ImportOriginal) {
  const dns = await importOriginal<Record<string, unknown>>();
  const original = dns.lookup as (...args: unknown[]) => unknown;
  const lookup = (...args: unknown[]) => {
    if (!isLoopback(args[0])) noRealDns();
    return original(...args);
  };
  const guarded = { ...dns, lookup };
  return { ...guarded, default: guarded };
}
